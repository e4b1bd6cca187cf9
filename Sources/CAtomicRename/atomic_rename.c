#include "atomic_rename.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

/// renameat2(2) with `flags` (<linux/fs.h>: RENAME_NOREPLACE 1, RENAME_EXCHANGE 2),
/// retried when a signal interrupts it.
static int rename_with_flags(const char *from, const char *to, unsigned int flags) {
#if defined(SYS_renameat2)
    long result;
    do {
        result = syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
    } while (result != 0 && errno == EINTR);
    return (int)result;
#else
    (void)from;
    (void)to;
    (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

int healthlog_rename_noreplace(const char *from, const char *to) {
    return rename_with_flags(from, to, 1);
}

int healthlog_rename_exchange(const char *a, const char *b) {
    return rename_with_flags(a, b, 2);
}

#elif defined(__APPLE__)

int healthlog_rename_noreplace(const char *from, const char *to) {
    return renamex_np(from, to, RENAME_EXCL);
}

int healthlog_rename_exchange(const char *a, const char *b) {
    return renamex_np(a, b, RENAME_SWAP);
}

#else

int healthlog_rename_noreplace(const char *from, const char *to) {
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
}

int healthlog_rename_exchange(const char *a, const char *b) {
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
}

#endif
