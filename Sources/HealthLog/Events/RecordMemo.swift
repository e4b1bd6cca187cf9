/// What ``EventRecord`` decoded from the lines before, reused when a line holds the same
/// bytes: the samples of a query mostly repeat their type, unit, source, device and
/// metadata, so a query that decodes many lines decodes (and allocates) each distinct value
/// once, and its samples share the strings and dictionaries.
struct RecordMemo {
    /// One field's last few distinct values, each with the bytes it was decoded from.
    struct Slot<Value> {
        private var keys: [[UInt8]] = []
        private var values: [Value] = []
        private var next = 0
        /// How many values the slot keeps (the oldest is replaced).
        private let capacity: Int

        /// A slot that keeps `capacity` values.
        init(capacity: Int = 4) {
            self.capacity = capacity
        }

        /// The value `bytes` decodes to: the one remembered for the same bytes, else what
        /// `decode` makes of them, then remembered.
        mutating func value(_ bytes: UnsafeRawBufferPointer, _ decode: () throws -> Value) rethrows -> Value {
            if let known = remembered(bytes) { return known }
            let value = try decode()
            remember(bytes, value)
            return value
        }

        /// The value remembered for exactly `bytes`, if any.
        func remembered(_ bytes: UnsafeRawBufferPointer) -> Value? {
            for k in keys.indices where Self.equal(keys[k], bytes) { return values[k] }
            return nil
        }

        /// The value remembered for bytes that `line` holds from `at` on (the line may go
        /// on after them), and how many bytes they are; `nil` when none is remembered.
        func match(_ line: UnsafeRawBufferPointer, at: Int) -> (value: Value, count: Int)? {
            let rest = line.count - at
            for k in keys.indices {
                let count = keys[k].count
                guard count > 0, count <= rest else { continue }
                if keys[k].withUnsafeBytes({ ShortBytes.equal($0.baseAddress!, line.baseAddress! + at, count) }) { return (values[k], count) }
            }
            return nil
        }

        /// Remembers `value` as what `bytes` decode to, replacing the oldest when full.
        mutating func remember(_ bytes: UnsafeRawBufferPointer, _ value: Value) {
            if keys.count < capacity {
                keys.append(Array(bytes))
                values.append(value)
            } else {
                keys[next] = Array(bytes)
                values[next] = value
                next = (next + 1) % capacity
            }
        }

        /// Whether `key` is `bytes`. The last eight bytes are compared first: the long
        /// values a slot keeps (metadata, a line's tail) mostly differ near their end.
        private static func equal(_ key: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
            let count = bytes.count
            guard key.count == count else { return false }
            guard let base = bytes.baseAddress else { return true }
            return key.withUnsafeBytes { k in
                let keyBase = k.baseAddress!
                if count >= 8, keyBase.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) != base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) {
                    return false
                }
                return ShortBytes.equal(keyBase, base, count)
            }
        }
    }

    var type = Slot<SampleType?>()
    var unit = Slot<String>()
    var source = Slot<String>()
    var sourceVersion = Slot<String>()
    var device = Slot<String>()
    /// String values (category constants' names, characteristics), for ``StoredLineDecoder``.
    var text = Slot<String>()
    /// The date of the last instant ``StoredLineDecoder`` read.
    var day = Timestamp.Day()
    /// What follows the value of a stored line, for ``StoredLineDecoder``: more of them
    /// than of a single field, as the lines of one type mix a few sources, versions and
    /// devices with a few metadata objects (one watch's heart rates and their deletes cycle
    /// through five tails in the yardstick's data), and a tail read again makes a new
    /// object for its samples to share.
    var tail = Slot<StoredLineDecoder.Tail>(capacity: 16)
    var metadata = Slot<(entries: [EventRecord.MetadataEntry], dictionary: [String: MetadataValue])>()
}
