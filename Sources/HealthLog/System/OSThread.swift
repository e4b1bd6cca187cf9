#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CThreadPlacement

/// A thread of the operating system (`pthread_create`) running one job: joined by its
/// starter, or detached. Every thread healthlog starts is one of these, so a long job (a
/// follow, a parse) never starves Dispatch's or Swift concurrency's shared pools.
package struct OSThread {
    /// The job, handed to the thread through an opaque pointer.
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    private init(_ thread: pthread_t) {
        self.thread = thread
    }

    /// Starts `body` on a new thread; `nil` (and `body` not run) when no thread can be
    /// started, with the reason in `errno`.
    ///
    /// With `besideCaller` (a thread that works while its starter goes on working), the
    /// thread begins on another processor than the caller's, then lets itself run on any
    /// the caller may: Linux puts a new thread on its parent's processor, where one of the
    /// two can wait milliseconds for the other while another processor idles (3.3–3.6 ms in
    /// half of the starts measured on a 2-core machine).
    package static func start(besideCaller: Bool = true, _ body: @escaping () -> Void) -> OSThread? {
        guard besideCaller else { return create(Job(body), attributes: nil) }
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return create(Job(body), attributes: nil) }
        defer { pthread_attr_destroy(&attributes) }
        var processors = healthlog_processors()
        guard healthlog_start_elsewhere(&attributes, &processors) == 1 else { return create(Job(body), attributes: nil) }
        let allowed = processors
        let placed = Job {
            withUnsafePointer(to: allowed) { healthlog_allow_processors($0) }
            body()
        }
        return create(placed, attributes: &attributes) ?? create(Job(body), attributes: nil)
    }

    /// Starts `job` on a new thread made with `attributes` (the defaults when `nil`); `nil`
    /// when none can be started, with the reason in `errno`.
    private static func create(_ job: Job, attributes: UnsafePointer<pthread_attr_t>?) -> OSThread? {
        let context = Unmanaged.passRetained(job).toOpaque()
        #if canImport(Glibc)
        var made = pthread_t()
        #else
        var made: pthread_t?
        #endif
        let result = pthread_create(&made, attributes, { raw in
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
            errno = result
            return nil
        }
        return OSThread(started)
    }

    /// Gives the calling thread a lower share of the processors than the process's other
    /// threads when they all want one (Linux: its nice value raised by `steps`, which any
    /// thread may do; elsewhere nothing): for throughput work beside a thread whose pace
    /// sets the job's.
    package static func deferToOtherThreads(by steps: Int32) {
        #if os(Linux)
        // Linux keeps a nice value per thread; who 0 is the calling one.
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, nice + steps))
        #endif
    }

    /// Starts `body` on a new thread.
    ///
    /// - Throws: ``HealthLogError/Code/io`` naming `purpose` ("the import") when no thread
    ///   can be started.
    package static func start(for purpose: String, _ body: @escaping () -> Void) throws -> OSThread {
        guard let started = start(body) else {
            let reason = errno
            throw HealthLogError(.io, "cannot start a thread for \(purpose): \(String(cString: strerror(reason)))", errno: reason)
        }
        return started
    }

    /// Starts `body` on a new, detached thread (a long job, such as a follow, that would
    /// starve Dispatch's or Swift concurrency's shared pools, or a query whose caller awaits
    /// it, where the processor the caller leaves is the one to take); runs it here when no
    /// thread can be started.
    package static func detach(_ body: @escaping () -> Void) {
        if !detachIfPossible(besideCaller: false, body) { body() }
    }

    /// Starts `body` on a new, detached thread, placed as ``start(besideCaller:_:)`` says;
    /// `false` (and `body` not run) when no thread can be started.
    package static func detachIfPossible(besideCaller: Bool = true, _ body: @escaping () -> Void) -> Bool {
        guard let thread = start(besideCaller: besideCaller, body) else { return false }
        thread.detach()
        return true
    }

    /// Runs `background` on a new thread and `foreground` on this one, and returns when
    /// both have. The two must touch disjoint state; what `background` produced is the
    /// caller's once this returns. When no thread can be started, `background` runs here
    /// after `foreground`: the same result, later.
    package static func run(_ background: () -> Void, alongside foreground: () -> Void) {
        withoutActuallyEscaping(background) { body in
            let thread = start(body)
            foreground()
            guard let thread else { return body() }
            thread.join()
        }
    }

    /// Waits for the job to end (`pthread_join`).
    package func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, never joined (`pthread_detach`).
    package func detach() {
        pthread_detach(thread)
    }
}
