// CPU affinity for Swift, which cannot see glibc's sched_getaffinity (a _GNU_SOURCE
// declaration) nor its CPU_* macros.
#ifndef CAFFINITY_H
#define CAFFINITY_H

/// The number of cores the calling thread may run on (its affinity mask: taskset, a
/// cpuset), or -errno.
int oc_usable_cores(void);

/// Restricts every thread of the process to the first `count` cores of the calling
/// thread's mask (threads started later inherit it). Returns `count`, or how many cores
/// the mask has if that is fewer (nothing changed), or -errno.
int oc_pin_process_to_first_cores(int count);

#endif
