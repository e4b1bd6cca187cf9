#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Items made out of order by several threads and taken in order by one: item `n` is taken
/// after item `n - 1`, whichever thread put it first. A thread putting an item more than
/// ``capacity`` ahead of the next one to take waits, so memory holds a few items however
/// far the makers run ahead; a cancelled handoff (the taker stopped) takes nothing more and
/// wakes everyone waiting.
final class OrderedHandoff<Item: Sendable>: @unchecked Sendable {
    // Sendable by hand: `waiting`, `next` and `cancelled` are read and written only with
    // `mutex` locked; the pthread objects are made once in `init` and freed in `deinit`.

    /// How far ahead of the next item to take an item may be put.
    let capacity: Int

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when the next item to take was put: wakes the taker.
    private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Broadcast when an item was taken: wakes the threads waiting to put.
    private let taken = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The items put and not yet taken, by number.
    private var waiting: [Int: Item] = [:]
    /// The number of the next item to take.
    private var next = 0
    /// Whether the taker stopped: puts fail and takes return `nil` from then on.
    private var cancelled = false

    /// An empty handoff whose items may be put up to `capacity` ahead of the next taken.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(ready, nil)
        pthread_cond_init(taken, nil)
    }

    deinit {
        pthread_cond_destroy(ready)
        pthread_cond_destroy(taken)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        ready.deallocate()
        taken.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Puts item number `number` (each number once), waiting while it is ``capacity`` or
    /// more ahead of the next to take; `false` when the handoff was cancelled.
    func put(_ number: Int, _ item: Item) -> Bool {
        locked {
            while number - next >= capacity, !cancelled { pthread_cond_wait(taken, mutex) }
            guard !cancelled else { return false }
            waiting[number] = item
            if number == next { pthread_cond_signal(ready) }
            return true
        }
    }

    /// Takes the next item in order, waiting until it is put; `nil` when the handoff was
    /// cancelled.
    func take() -> Item? {
        locked {
            while waiting[next] == nil, !cancelled { pthread_cond_wait(ready, mutex) }
            guard !cancelled, let item = waiting.removeValue(forKey: next) else { return nil }
            next += 1
            pthread_cond_broadcast(taken)
            return item
        }
    }

    /// Stops the handoff: puts fail and takes return `nil`, waiting ones included.
    func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(ready)
            pthread_cond_broadcast(taken)
        }
    }
}
