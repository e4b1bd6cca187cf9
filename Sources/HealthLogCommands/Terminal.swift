#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard streams: stdout buffered (data), stderr unbuffered (diagnostics).
/// Writes go straight to file descriptors 1 and 2.
final class Terminal {
    private var buffer: [UInt8] = []
    private let capacity = 1 << 20

    init() {
        buffer.reserveCapacity(capacity + 4096)
    }

    /// Appends data bytes for stdout, writing out when the buffer is full.
    func write(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Appends a line of text for stdout.
    func print(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out everything buffered for stdout.
    func flush() {
        Terminal.writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
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
        Terminal.writeAll(2, Array(("\r" + text + "\u{1B}[K").utf8))
    }

    /// Writes a line to stderr.
    func error(_ text: String) {
        Terminal.writeAll(2, Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
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
}

/// `write(2)`, spelled so the ``Terminal`` methods named `write` do not shadow it.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
