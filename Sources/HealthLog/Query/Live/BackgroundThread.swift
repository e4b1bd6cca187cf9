#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a long job on a thread of its own (a follow blocks for as long as it runs, which
/// would starve Dispatch's or Swift concurrency's shared pools).
enum BackgroundThread {
    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new, detached thread (runs it here when no thread can be started).
    static func start(_ body: @escaping @Sendable () -> Void) {
        if !startIfPossible(body) { body() }
    }

    /// Starts `body` on a new, detached thread; `false` (and `body` not run) when no thread
    /// can be started.
    static func startIfPossible(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, nil, { raw in
            #if canImport(Glibc)
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            #else
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #endif
            job.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return false
        }
        #if canImport(Glibc)
        pthread_detach(thread)
        #else
        if let thread { pthread_detach(thread) }
        #endif
        return true
    }
}
