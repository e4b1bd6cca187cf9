#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a long-running job (a continuous backup, ``HealthStore/backup(to:until:afterRound:)``;
/// an ``AnchoredObjectQuery``; `replay --follow`) to finish: from any thread, or from a
/// signal handler by writing one byte to ``descriptor``.
///
/// A follow that is stopped finishes the batch it is delivering, then returns.
public final class StopSignal: Sendable {
    private let readEnd: Int32
    /// The pipe's write end: `write(descriptor, &byte, 1)` stops the follow, and is safe in
    /// a signal handler (nothing else is).
    public let descriptor: Int32

    /// A new, unsignalled stop signal (a pipe).
    public init() throws {
        var ends: [Int32] = [0, 0]
        _ = try retryingOnInterrupt("pipe for", path: "a stop signal") { pipe(&ends) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        descriptor = ends[1]
    }

    deinit {
        close(readEnd)
        close(descriptor)
    }

    /// Stops the follow.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// Whether ``stop()`` has been called (or a byte written).
    public var isStopped: Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// The descriptor that becomes readable when stopped, for `poll`.
    var pollDescriptor: Int32 { readEnd }
}
