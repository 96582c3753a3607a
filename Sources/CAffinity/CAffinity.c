#define _GNU_SOURCE
#include "CAffinity.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

int oc_usable_cores(void) {
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return -errno;
    return CPU_COUNT(&mask);
}

int oc_pin_process_to_first_cores(int count) {
    cpu_set_t allowed, chosen;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -errno;
    CPU_ZERO(&chosen);
    int picked = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && picked < count; cpu++) {
        if (CPU_ISSET(cpu, &allowed)) {
            CPU_SET(cpu, &chosen);
            picked++;
        }
    }
    if (picked < count) return picked;
    // Threads already started (Dispatch's, Foundation's), then the caller.
    DIR *tasks = opendir("/proc/self/task");
    if (tasks) {
        for (struct dirent *entry; (entry = readdir(tasks));) {
            pid_t tid = (pid_t)atoi(entry->d_name);
            if (tid > 0) sched_setaffinity(tid, sizeof chosen, &chosen);
        }
        closedir(tasks);
    }
    if (sched_setaffinity(0, sizeof chosen, &chosen) != 0) return -errno;
    return count;
}
