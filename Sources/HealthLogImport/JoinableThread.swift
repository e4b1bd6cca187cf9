#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// A thread that runs one job and is joined: the import's parsing and mapping helpers.
struct JoinableThread {
    private let thread: OSThread

    /// Starts `body` on a new thread.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when no thread can be made.
    init(_ body: @escaping @Sendable () -> Void) throws {
        guard let started = OSThread.start(body) else {
            let reason = errno
            throw HealthLogError(.io, "cannot start a thread for the import: \(String(cString: strerror(reason)))", errno: reason)
        }
        thread = started
    }

    /// Waits for the job to end.
    func join() {
        thread.join()
    }
}
