#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#endif

#include "thread_placement.h"

#if defined(__linux__)
_Static_assert(sizeof(cpu_set_t) <= sizeof(healthlog_processors), "a cpu_set_t fits healthlog_processors");
#endif

int healthlog_start_elsewhere(pthread_attr_t *attributes, healthlog_processors *allowed) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2) return 0;
    int current = sched_getcpu();
    if (current < 0 || current >= CPU_SETSIZE || !CPU_ISSET(current, &set)) return 0;
    memset(allowed, 0, sizeof *allowed);
    memcpy(allowed->bits, &set, sizeof set);
    CPU_CLR(current, &set);
    return pthread_attr_setaffinity_np(attributes, sizeof set, &set) == 0;
#else
    (void)attributes;
    (void)allowed;
    return 0;
#endif
}

void healthlog_allow_processors(const healthlog_processors *allowed) {
#if defined(__linux__)
    cpu_set_t set;
    memcpy(&set, allowed->bits, sizeof set);
    sched_setaffinity(0, sizeof set, &set);
#else
    (void)allowed;
#endif
}
