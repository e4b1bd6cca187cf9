#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes text to the standard streams by file descriptor (Glibc's `stderr` is not
/// usable in Swift 6 language mode).
enum Console {
    /// Writes `text` to `descriptor` (1 for stdout, 2 for stderr), retrying short writes
    /// (`write(2)`); a failure to write a message is ignored, as there is nowhere to say so.
    static func send(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Writes `line` and a newline to standard error.
    static func report(_ line: String) {
        send(line + "\n", to: 2)
    }
}
