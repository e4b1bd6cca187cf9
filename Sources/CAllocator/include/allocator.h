#ifndef HEALTHLOG_ALLOCATOR_H
#define HEALTHLOG_ALLOCATOR_H

/// Gives heap blocks of `bytes` and more mappings of their own, returned to the system when
/// freed, and keeps that threshold fixed: mallopt(3) with M_MMAP_THRESHOLD on glibc.
/// Wrapped because Swift's C library module does not declare malloc.h. Returns 1 when set,
/// 0 where the allocator has no such setting.
int healthlog_fix_mmap_threshold(int bytes);

/// Lets the threads of the process share at most `count` heaps (arenas), so a block freed
/// on one thread is reused by the others rather than kept apart in the heap of the thread
/// that freed it: mallopt(3) with M_ARENA_MAX on glibc. Returns 1 when set, 0 where the
/// allocator has no such setting.
int healthlog_limit_arenas(int count);

#endif
