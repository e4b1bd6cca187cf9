#ifndef HEALTHLOG_ALLOCATOR_H
#define HEALTHLOG_ALLOCATOR_H

/// Gives heap blocks of `bytes` and more mappings of their own, returned to the system when
/// freed, and keeps that threshold fixed: mallopt(3) with M_MMAP_THRESHOLD on glibc.
/// Wrapped because Swift's C library module does not declare malloc.h. Returns 1 when set,
/// 0 where the allocator has no such setting.
int healthlog_fix_mmap_threshold(int bytes);

#endif
