#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// A thread that runs one job and is joined: the import's parsing and mapping helpers.
struct JoinableThread {
    /// The job, handed to the thread.
    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread (`pthread_create`).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when no thread can be made.
    init(_ body: @escaping @Sendable () -> Void) throws {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        #if canImport(Glibc)
        var made = pthread_t()
        #else
        var made: pthread_t?
        #endif
        let result = pthread_create(&made, nil, { raw in
            #if canImport(Glibc)
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            #else
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #endif
            job.body()
            return nil
        }, context)
        let started: pthread_t? = result == 0 ? made : nil
        guard let started else {
            Unmanaged<Job>.fromOpaque(context).release()
            throw HealthLogError(.io, "cannot start a thread for the import: \(String(cString: strerror(result)))", errno: result)
        }
        thread = started
    }

    /// Waits for the job to end (`pthread_join`).
    func join() {
        pthread_join(thread, nil)
    }
}
