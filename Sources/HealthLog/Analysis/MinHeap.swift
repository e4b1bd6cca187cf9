/// A binary min-heap of `Element`s ordered by `less`: the smallest on top.
struct MinHeap<Element> {
    /// The elements, in heap order.
    private var items: [Element] = []
    /// Whether the first element goes before the second.
    private let less: (Element, Element) -> Bool

    /// An empty heap ordered by `less`.
    init(_ less: @escaping (Element, Element) -> Bool) {
        self.less = less
    }

    /// The smallest element, `nil` when empty.
    var min: Element? { items.first }

    /// Whether it holds nothing.
    var isEmpty: Bool { items.isEmpty }

    /// Adds `element`.
    mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes out and returns the smallest element, `nil` when empty.
    @discardableResult
    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { break }
            var smaller = left
            if left + 1 < items.count, less(items[left + 1], items[left]) { smaller = left + 1 }
            guard less(items[smaller], items[parent]) else { break }
            items.swapAt(smaller, parent)
            parent = smaller
        }
        return top
    }
}
