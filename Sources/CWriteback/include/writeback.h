#ifndef HEALTHLOG_WRITEBACK_H
#define HEALTHLOG_WRITEBACK_H

/// Asks the kernel to start writing the dirty pages of `length` bytes of the file `fd` from
/// `offset` to disk, without waiting for them: sync_file_range(2) with
/// SYNC_FILE_RANGE_WRITE on Linux, so a later fdatasync(2) finds most of them written.
/// A hint only: it makes nothing durable. Returns 0, or -1 with errno set; 0 and nothing
/// done where the call does not exist. Wrapped because Swift's C library module does not
/// declare this GNU extension.
int healthlog_start_writeback(int fd, long long offset, long long length);

/// Gives the disk room of `length` bytes of the file `fd` from `offset` back, leaving a
/// hole that reads as zeros and the file's size as it is: fallocate(2) with
/// FALLOC_FL_PUNCH_HOLE on Linux. Returns 0, or -1 with errno set (a file system without
/// holes); -1 with ENOSYS where the call does not exist.
int healthlog_release_range(int fd, long long offset, long long length);

#endif
