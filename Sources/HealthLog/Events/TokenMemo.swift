#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Value tokens the event parser validated on the lines before, so that a later line whose
/// token is the same bytes is taken without scanning and decoding it again: the lines of one
/// input repeat their `type`, `unit`, `source`, `sourceVersion`, `device` and `metadata`
/// from line to line, and a sample's `end` is often its `start`.
///
/// Taking a remembered token gives what scanning it would: the string scan and the
/// `metadata` object's parse read nothing past the token's closing quote or brace, and do
/// the same on the same bytes, so bytes equal to a token they accepted end at the same
/// place and mean the same (a `type`'s kind, an instant's value). Only tokens that parsed
/// are remembered, so a line that fails still fails in the scan, with the same error.
/// Each slot keeps the last ``entries`` tokens of up to ``capacity`` bytes. One memo serves
/// one thread (a chunk's preparer).
final class TokenMemo {
    /// What a remembered token stands for: the value of that field (`instant`: of `start`
    /// or `end`; `metadata`: an object without the sync keys).
    enum Slot: Int, CaseIterable {
        case type, unit, source, sourceVersion, device, instant, metadata
    }

    /// Tokens remembered a slot.
    static let entries = 8
    /// The longest token remembered, in bytes.
    static let capacity = 248

    /// The tokens' bytes: entry `e` of slot `s` at `(s * entries + e) * capacity`.
    private let bytes: UnsafeMutableRawPointer
    /// Each entry's token length (0: empty).
    private let lengths: UnsafeMutablePointer<Int>
    /// A `type` entry's kind.
    private let kinds: UnsafeMutablePointer<SampleKind>
    /// An `instant` entry's value.
    private let instants: UnsafeMutablePointer<Timestamp>
    /// The entry each slot fills next (round robin).
    private let next: UnsafeMutablePointer<Int>
    /// The fields of the line parsed last, in the order its keys came (a hint only: the
    /// parser takes the `k`th key from it when the line's bytes there are exactly that key).
    private let order: UnsafeMutablePointer<Field>
    /// The keys of ``order``'s fields, kept here so that a compare reads no global table.
    private let orderKeys: UnsafeMutablePointer<FieldKey>
    /// How many fields ``order`` holds.
    private var orderCount = 0
    /// The date the last instant parsed fell on: instants of one input mostly fall on the
    /// day of the one before, whose date is then not read again (``Timestamp/init(utf8:day:)``).
    @exclusivity(unchecked) var day = Timestamp.Day()

    /// An empty memo.
    init() {
        let count = Slot.allCases.count * Self.entries
        bytes = .allocate(byteCount: count * Self.capacity, alignment: 16)
        lengths = .allocate(capacity: count)
        lengths.initialize(repeating: 0, count: count)
        kinds = .allocate(capacity: count)
        kinds.initialize(repeating: .quantity, count: count)
        instants = .allocate(capacity: count)
        instants.initialize(repeating: Timestamp(microseconds: 0), count: count)
        next = .allocate(capacity: Slot.allCases.count)
        next.initialize(repeating: 0, count: Slot.allCases.count)
        order = .allocate(capacity: Field.allCases.count)
        order.initialize(repeating: .op, count: Field.allCases.count)
        orderKeys = .allocate(capacity: Field.allCases.count)
        orderKeys.initialize(repeating: FieldKey(.op), count: Field.allCases.count)
    }

    /// Frees the tokens' memory.
    deinit {
        bytes.deallocate()
        lengths.deallocate()
        kinds.deallocate()
        instants.deallocate()
        next.deallocate()
        order.deallocate()
        orderKeys.deallocate()
    }

    /// When the line parsed last had a `k`th key and the bytes of `s` at its position
    /// (no blanks skipped) are exactly that key, `"name":` with its colon: that field,
    /// with the key and colon consumed. Otherwise `nil`, with nothing consumed, and the
    /// parser reads the key as it reads any. What it consumes is what ``Field/atKey(_:)``
    /// and the colon's `expect` would on the same bytes, so the parse goes on the same.
    @inline(__always)
    func expectedField(_ k: Int, in s: inout JSONScanner) -> Field? {
        guard k < orderCount, s.position + 16 <= s.bytes.count else { return nil }
        guard orderKeys[k].isAt(s.position, of: s.bytes) else { return nil }
        s.position += orderKeys[k].length
        return order[k]
    }

    /// Notes that the `k`th key of the line being parsed is `field`.
    @inline(__always)
    func noteField(_ field: Field, at k: Int) {
        if k >= orderCount || order[k] != field {
            order[k] = field
            orderKeys[k] = FieldKey.all[field.rawValue]
        }
        if k >= orderCount { orderCount = k + 1 }
    }

    /// Notes that the line parsed had `count` keys, all noted.
    func endOrder(_ count: Int) {
        orderCount = count
    }

    /// The entry of `slot` whose token is the bytes of `line` from `at` on, or `nil`.
    @inline(__always)
    func match(_ slot: Slot, _ line: UnsafeRawBufferPointer, at: Int) -> Int? {
        guard let base = line.baseAddress else { return nil }
        let room = line.count - at
        let first = slot.rawValue * Self.entries
        for entry in first..<first + Self.entries {
            let length = lengths[entry]
            guard length != 0, length <= room else { continue }
            let known = bytes + entry * Self.capacity
            // The last 8 bytes first (the first ones are often shared: "2019-09-…", "<<HKDevice>…"),
            // inline; the whole token only when they are the same.
            if length >= 8 {
                let tail = length - 8
                guard known.loadUnaligned(fromByteOffset: tail, as: UInt64.self) == (base + at).loadUnaligned(fromByteOffset: tail, as: UInt64.self) else { continue }
            }
            if Self.same(known, base + at, length) { return entry }
        }
        return nil
    }

    /// Whether the `length` bytes at `a` and `b` are the same: a word at a time, inline
    /// (a call to `memcmp` made the compiler retain the memo around it, on every match);
    /// for 8 bytes or more the caller has compared the last word.
    @inline(__always)
    private static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
        guard length >= 8 else {
            for k in 0..<length where a.load(fromByteOffset: k, as: UInt8.self) != b.load(fromByteOffset: k, as: UInt8.self) { return false }
            return true
        }
        var k = 0
        while k < length - 8 {
            guard a.loadUnaligned(fromByteOffset: k, as: UInt64.self) == b.loadUnaligned(fromByteOffset: k, as: UInt64.self) else { return false }
            k += 8
        }
        return true
    }

    /// Remembers `token` of `line` (a whole token that parsed) in `slot`; returns its entry,
    /// or `nil` when it is too long to keep.
    @discardableResult
    func record(_ slot: Slot, _ token: Range<Int>, of line: UnsafeRawBufferPointer) -> Int? {
        guard token.count <= Self.capacity, !token.isEmpty, let base = line.baseAddress else { return nil }
        let entry = slot.rawValue * Self.entries + next[slot.rawValue]
        next[slot.rawValue] = (next[slot.rawValue] + 1) % Self.entries
        memcpy(bytes + entry * Self.capacity, base + token.lowerBound, token.count)
        lengths[entry] = token.count
        return entry
    }

    /// The length of entry `entry`'s token.
    @inline(__always)
    func length(_ entry: Int) -> Int { lengths[entry] }

    /// The kind remembered with a `type` entry.
    func kind(_ entry: Int) -> SampleKind { kinds[entry] }

    /// Remembers `token` as a `type` whose prefix names `kind`.
    func recordType(_ token: Range<Int>, of line: UnsafeRawBufferPointer, kind: SampleKind) {
        if let entry = record(.type, token, of: line) { kinds[entry] = kind }
    }

    /// The instant remembered with an `instant` entry.
    func instant(_ entry: Int) -> Timestamp { instants[entry] }

    /// Remembers `token` as an instant of value `instant`.
    func recordInstant(_ token: Range<Int>, of line: UnsafeRawBufferPointer, instant: Timestamp) {
        if let entry = record(.instant, token, of: line) { instants[entry] = instant }
    }
}
