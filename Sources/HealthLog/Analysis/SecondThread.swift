#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one job on a second thread (`pthread_create`) while the calling thread runs
/// another, and returns when both have (`pthread_join`). The two jobs must touch
/// disjoint state; what the second one produced is the caller's once this returns.
enum SecondThread {
    /// The job the new thread runs.
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `background` on a new thread and `foreground` on this one. When no thread can
    /// be started, `background` runs here after `foreground`: the same result, later.
    static func run(_ background: () -> Void, alongside foreground: () -> Void) {
        withoutActuallyEscaping(background) { body in
            let context = Unmanaged.passRetained(Job(body)).toOpaque()
            #if canImport(Glibc)
            var thread = pthread_t()
            #else
            var thread: pthread_t?
            #endif
            let started = pthread_create(&thread, nil, { raw in
                #if canImport(Glibc)
                Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
                #else
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
                #endif
                return nil
            }, context) == 0
            foreground()
            guard started else {
                Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
                return
            }
            #if canImport(Glibc)
            pthread_join(thread, nil)
            #else
            if let thread { pthread_join(thread, nil) }
            #endif
        }
    }
}
