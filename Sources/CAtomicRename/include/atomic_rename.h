#ifndef HEALTHLOG_ATOMIC_RENAME_H
#define HEALTHLOG_ATOMIC_RENAME_H

/// The two renames of one directory entry over another that plain rename(2) cannot do:
/// `renameat2(2)` on Linux, called by its system call number (a statically linked binary
/// has no dynamic symbol to look it up by, and not every C library declares it), and
/// `renamex_np(2)` on Apple systems. Each returns 0, or -1 with `errno` set: `EINVAL`
/// when the file system does not support the flag, `ENOSYS` when the kernel or system
/// has no such call.

/// Renames `from` to `to` unless something exists at `to` (`RENAME_NOREPLACE`,
/// `RENAME_EXCL`): fails with `EEXIST` then, replacing nothing.
int healthlog_rename_noreplace(const char *from, const char *to);

/// Exchanges `a` and `b` in one step (`RENAME_EXCHANGE`, `RENAME_SWAP`), so each path
/// names one of the two at every instant, never nothing.
int healthlog_rename_exchange(const char *a, const char *b);

#endif
