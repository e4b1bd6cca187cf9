#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CWriteback

/// A thin owner of a POSIX file descriptor with the few calls the store needs.
///
/// Every call retries on `EINTR` and turns a failure into a ``HealthLogError`` that names
/// the path. The descriptor is closed by ``close()``; it is not closed on deinit, so
/// ownership stays explicit.
struct FileDescriptor: Sendable {
    /// The raw descriptor number.
    let rawValue: Int32
    /// The path it was opened with, for error messages.
    let path: String

    /// Opens a store file with `open(2)`, `O_NOFOLLOW` and `O_NONBLOCK`, then checks with
    /// `fstat(2)` that it is a regular file (a directory when `flags` holds `O_DIRECTORY`)
    /// owned by this process's user, and clears `O_NONBLOCK` again; files it creates get
    /// `mode` (0600 by default). A symbolic link at `path` is never followed, so nothing
    /// outside the store is opened through one, and a named pipe, socket or device is
    /// refused at once instead of waiting in `open(2)` for a writer that never comes.
    ///
    /// - Throws: ``HealthLogError/Code/unsafeFile`` naming `path` when it is a symbolic link,
    ///   another kind of file or another user's; ``HealthLogError/Code/io`` with the `errno`
    ///   (`ENOENT` among them) for any other failure.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws -> FileDescriptor {
        let fd = try openRefusingLinks(path, flags: flags | O_NOFOLLOW | O_NONBLOCK, mode: mode)
        do {
            try fd.requireOwned(flags & O_DIRECTORY != 0 ? .directory : .regularFile)
            if flags & O_NONBLOCK == 0 { try fd.clearNonBlocking() }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// Opens a file the user named outside any store (an anchor file) with `open(2)`,
    /// following symbolic links as every other tool does.
    static func openNamedByUser(_ path: String, flags: Int32) throws -> FileDescriptor {
        let fd = try retryingOnInterrupt("cannot open", path: path) { systemOpen(path, flags | O_CLOEXEC, 0o600) }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Whether something exists at `path` (`access(2)`).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Closes the descriptor with `close(2)`, ignoring errors (the data was synced before if it
    /// mattered). A descriptor closed twice would close whatever file took its number since,
    /// in any thread: debug builds (the tests) stop at a second close that finds it closed.
    func close() {
        let closed = systemClose(rawValue)
        assert(closed == 0 || errno != EBADF, "\(path): descriptor \(rawValue) closed twice")
    }

    /// The file's size in bytes, from `fstat(2)`.
    func size() throws -> Int {
        var info = stat()
        try retryingOnInterrupt("cannot stat", path: path) { fstat(rawValue, &info) }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes at `offset` with `pread(2)`, looping over short reads; returns
    /// fewer bytes only at end of file. The array is not zeroed first: it holds only what was read.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var result: Result<Int, HealthLogError> = .success(0)
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, filled in
            result = Result { () throws(HealthLogError) -> Int in try read(into: UnsafeMutableRawBufferPointer(raw), at: offset) }
            filled = (try? result.get()) ?? 0
        }
        _ = try result.get()
        return buffer
    }

    /// Fills `buffer` from `offset` with `pread(2)`; returns the bytes read (less only at end of file).
    func read(into buffer: inout [UInt8], at offset: Int) throws -> Int {
        try buffer.withUnsafeMutableBytes { try read(into: $0, at: offset) }
    }

    /// Fills `raw` from `offset` with `pread(2)`, looping over short reads; returns the bytes
    /// read (less only at end of file).
    func read(into raw: UnsafeMutableRawBufferPointer, at offset: Int) throws(HealthLogError) -> Int {
        var done = 0
        while done < raw.count {
            let n = pread(rawValue, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            if n < 0 {
                let err = errno
                if err == EINTR { continue }
                throw HealthLogError(.io, "cannot read \(path): \(describeErrno(err))", errno: err)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads from the current position with `read(2)` into `buffer`; returns 0 at end of input.
    func readSome(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try retryingOnInterrupt("cannot read", path: path) { systemRead(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes` at `offset` with `pwrite(2)`, looping over short writes.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = try retryingOnInterrupt("cannot write", path: path) {
                pwrite(rawValue, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            done += n
        }
    }

    /// Writes all of the array `bytes` at `offset` with `pwrite(2)`.
    func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { raw in try write(raw, at: offset) }
    }

    /// Flushes the file's data and size to stable storage with `fdatasync(2)`.
    func syncData() throws {
        try retryingOnInterrupt("cannot fdatasync", path: path, code: .syncFailed) { fdatasync(rawValue) }
    }

    /// Starts writing `count` bytes of the file's data from `offset` to disk without waiting
    /// (`sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE` on Linux, nothing elsewhere), so
    /// a later ``syncData()`` has little left to wait for. A hint that makes nothing
    /// durable: it reports no failure (an I/O error in that writeback still fails the
    /// ``syncData()`` after it).
    func startWriteback(at offset: Int, count: Int) {
        _ = healthlog_start_writeback(rawValue, Int64(offset), Int64(count))
    }

    /// Gives the disk room of `count` bytes from `offset` back, the file's size unchanged
    /// (a hole punched with `fallocate(2)` on Linux): for a scratch file's bytes read for
    /// the last time. A hint: where the file system has no holes the bytes stay.
    func releaseRange(at offset: Int, count: Int) {
        _ = healthlog_release_range(rawValue, Int64(offset), Int64(count))
    }

    /// Flushes the file (or directory) with `fsync(2)`.
    func sync() throws {
        try retryingOnInterrupt("cannot fsync", path: path, code: .syncFailed) { fsync(rawValue) }
    }

    /// Cuts the file to `length` bytes with `ftruncate(2)`.
    func truncate(to length: Int) throws {
        try retryingOnInterrupt("cannot truncate", path: path) { ftruncate(rawValue, off_t(length)) }
    }

    /// Sets the permission bits with `fchmod(2)`.
    func setMode(_ mode: mode_t) throws {
        try retryingOnInterrupt("cannot chmod", path: path) { fchmod(rawValue, mode) }
    }

    /// Tries to take an exclusive advisory lock with `flock(2)` without waiting; returns whether it was taken.
    func tryLockExclusive() throws -> Bool {
        while true {
            if flock(rawValue, LOCK_EX | LOCK_NB) == 0 { return true }
            let err = errno
            if err == EINTR { continue }
            if err == EWOULDBLOCK { return false }
            throw HealthLogError(.io, "cannot lock \(path): \(describeErrno(err))", errno: err)
        }
    }
}
