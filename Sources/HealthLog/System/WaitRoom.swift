#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and two conditions its holders wait on (pthread): what the queues between
/// threads (``OrderedJobs``, and the import's handoffs) lock and wait with. A waiter
/// waits on the condition that names what it waits for, so a change wakes only the
/// threads it concerns.
package final class WaitRoom: @unchecked Sendable {
    // Sendable by hand: the pthread objects are made once in `init` and freed in `deinit`;
    // pthread orders every access to them.

    /// Which of the two conditions.
    package enum Condition: Int {
        case first = 0, second = 1
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 2)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(conditions, nil)
        pthread_cond_init(conditions + 1, nil)
    }

    deinit {
        pthread_cond_destroy(conditions)
        pthread_cond_destroy(conditions + 1)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        conditions.deallocate()
    }

    /// Runs `body` with the mutex locked.
    package func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits for `condition` to be signalled; called with the mutex locked (in ``locked(_:)``).
    package func wait(_ condition: Condition) {
        pthread_cond_wait(conditions + condition.rawValue, mutex)
    }

    /// Wakes one thread waiting for `condition`.
    package func signal(_ condition: Condition) {
        pthread_cond_signal(conditions + condition.rawValue)
    }

    /// Wakes every thread waiting for `condition`.
    package func broadcast(_ condition: Condition) {
        pthread_cond_broadcast(conditions + condition.rawValue)
    }

    /// Wakes every thread waiting, on either condition (a queue stopped).
    package func wakeAll() {
        broadcast(.first)
        broadcast(.second)
    }
}
