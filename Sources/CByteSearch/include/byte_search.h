#ifndef HEALTHLOG_BYTE_SEARCH_H
#define HEALTHLOG_BYTE_SEARCH_H

#include <stddef.h>

/// memmem(3): the first occurrence of `needle` (`needle_length` bytes) in `haystack`
/// (`haystack_length` bytes), or NULL. Wrapped because Swift's C library module does not
/// declare this GNU extension.
const void *healthlog_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
