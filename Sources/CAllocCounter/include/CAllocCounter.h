#ifndef OPENCAPTURE_ALLOC_COUNTER_H
#define OPENCAPTURE_ALLOC_COUNTER_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, aligned allocations) made by the process so
/// far. The counter is what `capture bench` uses to prove steady-state capture allocates
/// nothing per frame.
uint64_t oc_allocation_count(void);
/// Whether allocations are counted: not in a sanitizer's build (ThreadSanitizer,
/// AddressSanitizer), whose runtime owns the allocator.
int oc_allocation_counting(void);

#endif
