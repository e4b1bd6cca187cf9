import HealthLog

/// Items made out of order by several threads and taken in order by one: item `n` is taken
/// after item `n - 1`, whichever thread put it first. A thread putting an item more than
/// ``capacity`` ahead of the next one to take waits, so memory holds a few items however
/// far the makers run ahead; a cancelled handoff (the taker stopped) takes nothing more and
/// wakes everyone waiting.
final class OrderedHandoff<Item: Sendable>: @unchecked Sendable {
    // Sendable by hand: `waiting`, `next` and `cancelled` are read and written only with
    // `room` locked.

    /// How far ahead of the next item to take an item may be put.
    let capacity: Int

    /// The lock, and the conditions: ``ready`` wakes the taker when the next item to take
    /// was put, ``taken`` the threads waiting to put when an item was taken.
    private let room = WaitRoom()
    private let ready = WaitRoom.Condition.first
    private let taken = WaitRoom.Condition.second
    /// The items put and not yet taken, by number.
    private var waiting: [Int: Item] = [:]
    /// The number of the next item to take.
    private var next = 0
    /// Whether the taker stopped: puts fail and takes return `nil` from then on.
    private var cancelled = false

    /// An empty handoff whose items may be put up to `capacity` ahead of the next taken.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Puts item number `number` (each number once), waiting while it is ``capacity`` or
    /// more ahead of the next to take; `false` when the handoff was cancelled.
    func put(_ number: Int, _ item: Item) -> Bool {
        room.locked {
            while number - next >= capacity, !cancelled { room.wait(taken) }
            guard !cancelled else { return false }
            waiting[number] = item
            if number == next { room.signal(ready) }
            return true
        }
    }

    /// Takes the next item in order, waiting until it is put; `nil` when the handoff was
    /// cancelled.
    func take() -> Item? {
        room.locked {
            while waiting[next] == nil, !cancelled { room.wait(ready) }
            guard !cancelled, let item = waiting.removeValue(forKey: next) else { return nil }
            next += 1
            room.broadcast(taken)
            return item
        }
    }

    /// Stops the handoff: puts fail and takes return `nil`, waiting ones included.
    func cancel() {
        room.locked {
            cancelled = true
            room.wakeAll()
        }
    }
}
