#define _GNU_SOURCE
#include <string.h>

#include "byte_search.h"

const void *healthlog_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
