#include "allocator.h"

// First, so that __GLIBC__ is defined (by its <features.h>) before it is tested.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int healthlog_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int healthlog_limit_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}
#else
int healthlog_fix_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}

int healthlog_limit_arenas(int count) {
    (void)count;
    return 0;
}
#endif
