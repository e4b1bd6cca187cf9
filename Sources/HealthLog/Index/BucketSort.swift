/// The linear sort of the UUID indexes' keys, whose top bits are spread evenly (fingerprints,
/// random UUIDs): one counting pass spreads the items into 2ᵇ buckets by their top bits,
/// with about four items a bucket, and each bucket is then put in order by insertion —
/// linear passes instead of a comparison sort's log₂(n). A bucket of many items (crafted
/// UUIDs) is sorted in n log n instead. The counts fit a few cache lines' worth of memory
/// at any size, and the output's storage is the caller's, reused from one sort to the next:
/// an append sorts a chunk of keys every few thousand events, and fresh megabytes each time
/// cost their page faults on the thread that sets its pace.
enum BucketSort {
    /// Inputs this small are simply sorted.
    static let smallCount = 4096

    /// How many top bits pick the bucket of one of `count` items: about four items a bucket.
    static func bits(for count: Int) -> Int {
        max(8, min(16, Int.bitWidth - count.leadingZeroBitCount - 3))
    }

    /// Puts `transform` of each of `items` into `out` (its contents replaced, its capacity
    /// kept), in the order `less`; `bucket(item, bits)` is the item's top `bits` bits, and
    /// keeps the order: an item of a lower bucket is `less` than one of a higher. Inlined,
    /// so the closures are too.
    @inline(__always)
    static func sort<Item, Element>(
        _ items: UnsafeBufferPointer<Item>, into out: inout [Element], bucket: (Item, Int) -> Int, transform: (Item) -> Element,
        by less: (Element, Element) -> Bool
    ) {
        out.removeAll(keepingCapacity: true)
        guard items.count > smallCount else {
            out.append(contentsOf: items.lazy.map(transform))
            out.sort(by: less)
            return
        }
        let bits = bits(for: items.count)
        // Each bucket's next free place; once every item is placed, the end of each bucket.
        var next = [Int](repeating: 0, count: 1 << bits)
        for item in items { next[bucket(item, bits)] += 1 }
        var start = 0
        for b in next.indices {
            let count = next[b]
            next[b] = start
            start += count
        }
        out.append(contentsOf: repeatElement(transform(items[0]), count: items.count))
        out.withUnsafeMutableBufferPointer { out in
            for item in items {
                let b = bucket(item, bits)
                out[next[b]] = transform(item)
                next[b] += 1
            }
            var start = 0
            for end in next {
                defer { start = end }
                guard end - start > 1 else { continue }
                if end - start > 64 {
                    out[start..<end].sort(by: less)
                    continue
                }
                for i in (start + 1)..<end {
                    let element = out[i]
                    var j = i
                    while j > start, less(element, out[j - 1]) {
                        out[j] = out[j - 1]
                        j -= 1
                    }
                    out[j] = element
                }
            }
        }
    }
}
