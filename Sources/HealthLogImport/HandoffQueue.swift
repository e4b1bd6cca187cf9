import HealthLog

/// A bounded first-in first-out queue between two threads of an import: the thread that
/// parses the export document, the one that helps map it, and the one that keeps the
/// events. At most ``capacity`` items wait, so memory holds a few batches however far the
/// producer runs ahead; a cancelled queue (the consumer stopped) takes nothing more and
/// wakes everyone waiting.
final class HandoffQueue<Item: Sendable>: @unchecked Sendable {
    // Sendable by hand: `items`, `head` and `cancelled` are read and written only with
    // `room` locked.

    /// The most items that wait.
    let capacity: Int

    /// The lock, and the conditions: ``added`` wakes a thread waiting to pop, ``taken`` one
    /// waiting to push.
    private let room = WaitRoom()
    private let added = WaitRoom.Condition.first
    private let taken = WaitRoom.Condition.second
    /// The items pushed since the last compaction; those before ``head`` were popped and
    /// are `nil`, so the queue holds no reference to an item once it was taken.
    private var items: [Item?] = []
    private var head = 0
    /// Whether the consumer stopped: pushes fail and pops return `nil` from then on.
    private var cancelled = false

    /// An empty queue holding at most `capacity` items.
    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// Adds `item`, waiting while ``capacity`` items wait; `false` when the queue was
    /// cancelled (the producer should stop).
    func push(_ item: Item) -> Bool {
        room.locked {
            while items.count - head >= capacity, !cancelled { room.wait(taken) }
            guard !cancelled else { return false }
            items.append(item)
            room.signal(added)
            return true
        }
    }

    /// The oldest item, waiting for one; `nil` once the queue is cancelled.
    func pop() -> Item? {
        room.locked {
            while items.count == head, !cancelled { room.wait(added) }
            guard !cancelled else { return nil }
            let item = items[head]
            items[head] = nil
            head += 1
            if head >= 64, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            room.signal(taken)
            return item
        }
    }

    /// Stops the queue: waiting pushes and pops return, and later ones fail.
    func cancel() {
        room.locked {
            cancelled = true
            room.wakeAll()
        }
    }
}
