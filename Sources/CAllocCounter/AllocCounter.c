// Counts heap allocations by interposing glibc's allocator entry points in the `capture`
// executable and forwarding to glibc's own implementations (__libc_*). Linked only into
// the command-line tool, where `capture bench` reads the count.
#include "CAllocCounter.h"
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define OC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define OC_SANITIZED 1
#endif

#ifdef OC_SANITIZED
// A sanitizer interposes the allocator itself (and starts before main, allocating through
// it): interposing here too would hand it memory it never saw. Nothing is counted.
uint64_t oc_allocation_count(void) { return 0; }
int oc_allocation_counting(void) { return 0; }
#else
int oc_allocation_counting(void) { return 1; }

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t allocations;

uint64_t oc_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

static inline void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *out = pointer;
    return 0;
}
#endif
