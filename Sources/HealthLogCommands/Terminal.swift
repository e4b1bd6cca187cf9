#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard streams: stdout buffered (data), stderr unbuffered (diagnostics).
/// Writes go straight to file descriptors 1 and 2.
final class Terminal {
    /// The stdout buffer: ``capacity`` bytes, of which the first ``used`` are pending.
    private let buffer: UnsafeMutableRawPointer
    private var used = 0
    /// Bytes of the caller's memory queued for stdout by ``writeReferenced(_:)``, after
    /// the buffer's, in order: the first ``queued`` of ``maxVectors`` ranges (raw memory,
    /// not an array, as this runs for every line a replay writes).
    private let referenced = UnsafeMutablePointer<iovec>.allocate(capacity: Terminal.maxVectors)
    private var queued = 0
    /// The most ranges one `writev(2)` takes (POSIX guarantees at least 16; Linux and the
    /// BSDs take 1024).
    private static let maxVectors = 1024
    /// 256 KiB: large writes, and little memory to fault in for a short command's output.
    private let capacity = 1 << 18

    init() {
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
        Terminal.widenPipe()
    }

    /// 1 MiB: Linux's default most an unprivileged process may ask of a pipe
    /// (`/proc/sys/fs/pipe-max-size`).
    private static let pipeCapacity: Int32 = 1 << 20

    /// `F_SETPIPE_SZ` (`F_LINUX_SPECIFIC_BASE` + 7), which Glibc's module does not export
    /// because its header declares it only under `_GNU_SOURCE`.
    private static let setPipeSize: Int32 = 1024 + 7

    /// When stdout is a pipe, asks Linux to let it hold ``pipeCapacity`` bytes instead of
    /// 64 KiB, so a replay of megabytes into `wc` or `jq` fills it in a few writes instead of
    /// waiting on the reader every 64 KiB. Best effort: a refusal leaves the pipe as it was.
    private static func widenPipe() {
        #if os(Linux)
        var info = stat()
        guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        _ = fcntl(1, setPipeSize, pipeCapacity)
        #endif
    }

    deinit {
        buffer.deallocate()
        referenced.deallocate()
    }

    /// Appends data bytes for stdout, writing out first when they would not fit (bytes
    /// larger than the whole buffer are written out directly).
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        if queued > 0 { flushReferenced() }
        if used + bytes.count > capacity {
            flushBuffer()
            if bytes.count > capacity {
                Terminal.writeAll(1, bytes)
                return
            }
        }
        (buffer + used).copyMemory(from: start, byteCount: bytes.count)
        used += bytes.count
    }

    /// Appends a line of text for stdout.
    func print(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Queues `bytes` for stdout without copying them: the caller keeps them valid until
    /// ``flushReferenced()`` (or any other write or flush) has written them out. Bytes that
    /// start where the last queued range ends lengthen that range (lines delivered from one
    /// decoded batch lie end to end), so a batch takes one range instead of one a line.
    func writeReferenced(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        if used > 0 { flushBuffer() }
        let count = queued
        if count > 0 {
            let last = referenced + (count - 1)
            if let base = last.pointee.iov_base, UnsafeRawPointer(base) + last.pointee.iov_len == start {
                last.pointee.iov_len += bytes.count
                return
            }
        }
        referenced[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: start), iov_len: bytes.count)
        queued = count + 1
        if count + 1 == Self.maxVectors { flushReferenced() }
    }

    /// Writes out the bytes ``writeReferenced(_:)`` queued, with `writev(2)`.
    func flushReferenced() {
        let vectors = referenced
        let count = queued
        queued = 0
        var first = 0
        while first < count {
            let n = writev(1, vectors + first, Int32(count - first))
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            var left = n
            while first < count, left >= vectors[first].iov_len {
                left -= vectors[first].iov_len
                first += 1
            }
            if left > 0 {
                vectors[first].iov_base += left
                vectors[first].iov_len -= left
            }
        }
    }

    /// Writes out everything buffered or queued for stdout.
    func flush() {
        flushReferenced()
        flushBuffer()
    }

    private func flushBuffer() {
        Terminal.writeAll(1, UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    /// Writes out stdout and, when it is a regular file, syncs it, so what follows (an
    /// anchor file) never gets ahead of the data on disk.
    func flushDurably() {
        flush()
        var info = stat()
        if fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { fsync(1) }
    }

    /// Redraws the current stderr line with `text` (carriage return, no newline).
    func errorInPlace(_ text: String) {
        var line = "\r" + text + "\u{1B}[K"
        line.withUTF8 { Terminal.writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// Writes a line to stderr.
    func error(_ text: String) {
        var line = text.hasSuffix("\n") ? text : text + "\n"
        line.withUTF8 { Terminal.writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    private static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) {
        var done = 0
        while done < raw.count {
            let n = posixWrite(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            done += n
        }
    }
}

/// `write(2)`, spelled so the ``Terminal`` methods named `write` do not shadow it.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
