#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The worker's end of the pipe to `healthlog`: each message written whole with `write(2)`
/// as soon as it is sent.
struct WorkerChannel {
    /// The descriptor (standard output).
    let fd: Int32

    /// Writes `message`. A failed write means `healthlog` is gone; the import goes on, as
    /// it would with nobody reading its output.
    func send(_ message: ImportWorkerMessage) {
        var bytes = Array(message.line.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}
