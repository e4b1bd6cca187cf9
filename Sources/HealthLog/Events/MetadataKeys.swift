/// The keys of one `metadata` object seen so far, to refuse a repeated one: the first
/// ``inlineCount`` are kept inline and compared one by one (an object usually holds one to
/// three keys, and a `Set` costs an allocation and a hash per key), the rest in a `Set` of
/// ``JSONKeyToken``s, so a huge object is still checked in linear time.
struct MetadataKeys {
    /// How many keys are compared one by one before the set takes over.
    static let inlineCount = 4
    /// The first keys' token ranges (quotes included), laid out as an array (a homogeneous
    /// tuple's elements are contiguous); `min(count, inlineCount)` of them are used.
    private var inline: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
    /// How many keys were inserted.
    private var count = 0
    /// Every key, once there are more than ``inlineCount``.
    private var set: Set<JSONKeyToken> = []

    /// Adds the key token at `key` of `line`; returns `false` when the same bytes were
    /// inserted before (the key is repeated).
    mutating func insert(_ key: Range<Int>, of line: UnsafeRawBufferPointer) -> Bool {
        func token(_ range: Range<Int>) -> JSONKeyToken { JSONKeyToken(bytes: UnsafeRawBufferPointer(rebasing: line[range])) }
        let held = count
        count += 1
        if held < Self.inlineCount {
            let isRepeated = withUnsafeMutableBytes(of: &inline) { raw -> Bool in
                let earlier = UnsafeMutableBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Range<Int>.self), count: Self.inlineCount)
                for range in earlier[0..<held] where range.count == key.count && line[range].elementsEqual(line[key]) { return true }
                earlier[held] = key
                return false
            }
            return !isRepeated
        }
        if held == Self.inlineCount {
            let earlier = withUnsafeBytes(of: inline) { Array(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: Range<Int>.self), count: Self.inlineCount)) }
            for range in earlier { set.insert(token(range)) }
        }
        return set.insert(token(key)).inserted
    }
}
