#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog
import HealthLogImport

/// How the worker ends with `healthlog`: SIGINT, SIGTERM and SIGHUP ask the import to
/// stop (``ImportStop``), and a thread watches a pipe whose only write end `healthlog`
/// holds, so the worker learns of its parent's end, however it ended (even by SIGKILL),
/// when that end reads as end of file. A parent that ended before the watch began is seen
/// at once: the pipe is then already at its end. The import stops as at a signal; a
/// worker that has not ended 30 seconds later exits all the same.
enum ParentWatch {
    /// The seconds a stopped worker has to end before it exits regardless.
    static let graceSeconds: UInt32 = 30

    /// Turns SIGINT, SIGTERM and SIGHUP into stop requests, and ignores SIGPIPE, so a
    /// worker whose parent is gone fails its writes to the pipe rather than dying before
    /// it cleans up.
    static func handleSignals() {
        signal(SIGPIPE, SIG_IGN)
        SignalHandlers.install([SIGINT, SIGTERM, SIGHUP]) { ImportStop.request($0) }
    }

    /// Watches `fd` (the read end of the parent's pipe) on a thread of its own: at its end
    /// the import is asked to stop, and the process exits if it is still running
    /// ``graceSeconds`` later.
    static func watch(_ fd: Int32) {
        let thread = OSThread.start {
            var byte: UInt8 = 0
            while true {
                let n = read(fd, &byte, 1)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
            }
            ImportStop.request(SIGHUP)
            sleep(graceSeconds)
            _exit(1)
        }
        thread?.detach()
    }
}
