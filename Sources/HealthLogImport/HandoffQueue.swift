#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded first-in first-out queue between two threads of an import: the thread that
/// parses the export document, the one that helps map it, and the one that keeps the
/// events. At most ``capacity`` items wait, so memory holds a few batches however far the
/// producer runs ahead; a cancelled queue (the consumer stopped) takes nothing more and
/// wakes everyone waiting.
final class HandoffQueue<Item: Sendable>: @unchecked Sendable {
    // Sendable by hand: `items` and `cancelled` are read and written only with `mutex`
    // locked; the pthread objects are made once in `init` and freed in `deinit`.

    /// The most items that wait.
    let capacity: Int

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when an item was added: wakes one thread waiting to pop.
    private let added = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signalled when an item was taken: wakes one thread waiting to push.
    private let taken = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The items pushed since the last compaction; those before ``head`` were popped and
    /// are `nil`, so the queue holds no reference to an item once it was taken.
    private var items: [Item?] = []
    private var head = 0
    /// Whether the consumer stopped: pushes fail and pops return `nil` from then on.
    private var cancelled = false

    /// An empty queue holding at most `capacity` items.
    init(capacity: Int = 8) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(added, nil)
        pthread_cond_init(taken, nil)
    }

    deinit {
        pthread_cond_destroy(added)
        pthread_cond_destroy(taken)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        added.deallocate()
        taken.deallocate()
    }

    /// Runs `body` with the mutex locked.
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Adds `item`, waiting while ``capacity`` items wait; `false` when the queue was
    /// cancelled (the producer should stop).
    func push(_ item: Item) -> Bool {
        locked {
            while items.count - head >= capacity, !cancelled { pthread_cond_wait(taken, mutex) }
            guard !cancelled else { return false }
            items.append(item)
            pthread_cond_signal(added)
            return true
        }
    }

    /// The oldest item, waiting for one; `nil` once the queue is cancelled.
    func pop() -> Item? {
        locked {
            while items.count == head, !cancelled { pthread_cond_wait(added, mutex) }
            guard !cancelled else { return nil }
            let item = items[head]
            items[head] = nil
            head += 1
            if head >= 64, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            pthread_cond_signal(taken)
            return item
        }
    }

    /// Stops the queue: waiting pushes and pops return, and later ones fail.
    func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(added)
            pthread_cond_broadcast(taken)
        }
    }
}
