#ifndef HEALTHLOG_THREAD_PLACEMENT_H
#define HEALTHLOG_THREAD_PLACEMENT_H

#include <pthread.h>

/// A set of processors, as sched_getaffinity(2) gives it (the bytes of a cpu_set_t).
typedef struct {
    unsigned long long bits[16];
} healthlog_processors;

/// Sets `attributes` so that the thread they start begins on a processor the calling thread
/// may use other than the one it runs on now, and stores in `allowed` every processor the
/// calling thread may use, which the new thread gives itself back with
/// healthlog_allow_processors() once it runs. Returns 1 when set; 0, with `attributes`
/// unchanged, when the calling thread may use one processor only or where processor
/// affinity does not exist. Wrapped because Swift's C library module does not declare
/// these GNU extensions.
int healthlog_start_elsewhere(pthread_attr_t *attributes, healthlog_processors *allowed);

/// Lets the calling thread run on the processors of `allowed` (sched_setaffinity(2)).
void healthlog_allow_processors(const healthlog_processors *allowed);

#endif
