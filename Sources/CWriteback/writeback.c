#if defined(__linux__)
#define _GNU_SOURCE
#include <fcntl.h>
#endif
#include <errno.h>

#include "writeback.h"

int healthlog_start_writeback(int fd, long long offset, long long length) {
#if defined(__linux__)
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
#endif
}

int healthlog_release_range(int fd, long long offset, long long length) {
#if defined(__linux__)
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
#else
    (void)fd;
    (void)offset;
    (void)length;
    errno = ENOSYS;
    return -1;
#endif
}
