import Testing

@testable import HealthLogImport

/// ``HandoffQueue`` hands each item over and keeps no reference to it, so the batches the
/// import's threads pass along are freed as soon as their taker is done with them.
@Suite("Import: the queue between the import's threads")
struct HandoffQueueTests {
    /// An item whose lifetime a weak reference shows.
    final class Item: Sendable {}

    @Test("An item popped is no longer held by the queue, before and after the queue compacts")
    func poppedItemsAreReleased() {
        let queue = HandoffQueue<Item>(capacity: 200)
        var weakItems: [() -> Item?] = []
        for _ in 0..<150 {
            let item = Item()
            weakItems.append { [weak item] in item }
            #expect(queue.push(item))
        }
        for taken in 0..<150 {
            #expect(queue.pop() != nil)
            // Every item up to this one was taken and dropped: none is still alive.
            #expect(weakItems[0...taken].allSatisfy { $0() == nil }, "after \(taken + 1) pops")
            #expect(weakItems[(taken + 1)...].allSatisfy { $0() != nil }, "after \(taken + 1) pops")
        }
    }
}
