import Dispatch
import HealthLog
import Testing

@testable import HealthLogImport

/// ``OrderedHandoff`` gives its taker the items in their numbers' order whichever thread
/// put them first, holds a putter that runs too far ahead, and lets everyone go when the
/// taker stops: the import's mapping threads finish batches out of order.
@Suite("Import: items made out of order, taken in order")
struct OrderedHandoffTests {
    /// What a thread found, read once it is joined.
    final class Box: @unchecked Sendable {
        var put = true
        var taken: Int? = 0
    }

    @Test("Items put by four threads in scrambled order are taken 0, 1, 2, …")
    func inOrder() throws {
        let handoff = OrderedHandoff<Int>(capacity: 8)
        let count = 2_000
        var threads: [OSThread] = []
        for lane in 0..<4 {
            threads.append(
                try OSThread.start(for: "a test") {
                    // Each thread puts every fourth number; the lanes race one another.
                    for number in stride(from: lane, to: count, by: 4) { _ = handoff.put(number, number * 10) }
                })
        }
        var taken: [Int] = []
        for _ in 0..<count { taken.append(handoff.take() ?? -1) }
        for thread in threads { thread.join() }
        #expect(taken == (0..<count).map { $0 * 10 })
    }

    @Test("A put as far ahead as the capacity waits until the items before it are taken")
    func boundedAhead() throws {
        let handoff = OrderedHandoff<Int>(capacity: 2)
        let put = DispatchSemaphore(value: 0)
        let thread = try OSThread.start(for: "a test") {
            _ = handoff.put(2, 2)
            put.signal()
        }
        #expect(put.wait(timeout: .now() + 0.2) == .timedOut)
        #expect(handoff.put(0, 0) && handoff.put(1, 1))
        #expect(handoff.take() == 0)
        #expect(put.wait(timeout: .now() + 60) == .success)
        #expect(handoff.take() == 1 && handoff.take() == 2)
        thread.join()
    }

    @Test("Cancelling wakes a waiting taker and putter; later puts fail")
    func cancelWakes() throws {
        let handoff = OrderedHandoff<Int>(capacity: 1)
        let box = Box()
        let putter = try OSThread.start(for: "a test") { box.put = handoff.put(5, 5) }
        let taker = try OSThread.start(for: "a test") { box.taken = handoff.take() }
        handoff.cancel()
        putter.join()
        taker.join()
        #expect(!box.put && box.taken == nil)
        #expect(!handoff.put(0, 0))
    }
}
