import Dispatch
import Synchronization

/// Two reusable buffers passed between a producer thread and a consumer: window `k` goes
/// through buffer `k % 2`, so the producer fills window `k + 1` while the consumer
/// empties window `k`, and neither waits for the other as long as both take about as long.
///
/// Each buffer belongs to one thread at a time: the producer's from the consumer's release
/// (``produce(_:_:)`` waits for it) to its own hand-over, the consumer's from that hand-over
/// (``consume(_:_:)`` waits for it) to its release. The semaphores order the two threads'
/// accesses to a buffer, so they never race.
final class WindowRelay<Buffer>: @unchecked Sendable {
    /// One buffer, a box of its own so the two threads never write the same object.
    private final class Box {
        var value: Buffer
        init(_ value: Buffer) { self.value = value }
    }

    private let boxes: [Box]
    private let filled = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    /// Signalled once each at the start, not created with a value of 1: a semaphore left
    /// below the value it was created with traps when it goes away, and a producer let
    /// through by ``stop()`` takes one more than the consumer gave back.
    private let emptied = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    private let stopped = Mutex(false)

    /// A relay of two buffers, each `make()` at first, both free for the producer.
    init(_ make: () -> Buffer) {
        boxes = [Box(make()), Box(make())]
        for semaphore in emptied { semaphore.signal() }
    }

    /// On the producer: fills window `k`'s buffer with `fill` once the consumer has
    /// released it, then hands it over; `false` (and `fill` not run) once the consumer has
    /// stopped.
    func produce(_ k: Int, _ fill: (inout Buffer) -> Void) -> Bool {
        let b = k & 1
        emptied[b].wait()
        guard !isStopped else { return false }
        fill(&boxes[b].value)
        filled[b].signal()
        return true
    }

    /// Whether the consumer has stopped (checked by the producer between pieces of work,
    /// so it ends soon after).
    var isStopped: Bool { stopped.withLock { $0 } }

    /// On the consumer: runs `body` on window `k`'s buffer once the producer has handed it
    /// over, then releases it (also when `body` throws). ``consumerWaited`` tells `body`
    /// whether the buffer was still being filled when the consumer asked for it.
    func consume<R>(_ k: Int, _ body: (inout Buffer) throws -> R) rethrows -> R {
        let b = k & 1
        consumerWaited = filled[b].wait(timeout: .now()) == .timedOut
        if consumerWaited { filled[b].wait() }
        defer { emptied[b].signal() }
        return try body(&boxes[b].value)
    }

    /// Whether the last ``consume(_:_:)`` had to wait for the producer: the producer is then
    /// the slower of the two. Read and written on the consumer's thread only.
    private(set) var consumerWaited = false

    /// On the consumer, when it needs no more windows: the producer stops at its next
    /// ``produce(_:_:)`` (or its next look at ``isStopped``). The consumer then joins it.
    func stop() {
        stopped.withLock { $0 = true }
        for semaphore in emptied { semaphore.signal() }
    }
}
