/// The samples a replay in HealthKit's view must leave out: those whose delete comes after
/// the anchor. Every added line is checked against it, so the check has a cheap front: a
/// bitmap keyed by the first eight hex digits of the UUID, read from the line's text
/// without parsing it. Only a line whose bit is set (a deleted sample, or about one in
/// sixty others) has its UUID parsed and looked up in the ``UUIDIndex`` behind it, which
/// is too large for the processor's caches when a log holds many deletes.
///
/// The bit of an inserted UUID comes from its value and the bit of a line from its text,
/// each as the eight digits' nibbles, one per byte, so upper and lower case agree; a line
/// whose UUID is not where a writer puts it misses the bitmap only when the full check
/// would not find it either (see ``contains(_:in:)``).
struct DeletedSamples {
    private var index: UUIDIndex
    private var bits: [UInt64]
    private let shift: UInt64
    /// How many UUIDs it holds.
    var count: Int { index.count }

    /// An empty set sized for about `capacity` UUIDs.
    init(capacity: Int) {
        index = UUIDIndex(capacity: capacity)
        var width = 12
        while width < 24, 1 << width < capacity * 64 { width += 1 }
        bits = [UInt64](repeating: 0, count: 1 << (width - 6))
        shift = UInt64(64 - width)
    }

    /// Adds `uuid`.
    mutating func insert(_ uuid: SampleUUID) {
        index.set(uuid, 0)
        var nibbles: UInt64 = 0
        for k in 0..<8 { nibbles |= ((uuid.high >> (60 - 4 * UInt64(k))) & 0xF) << (8 * UInt64(k)) }
        let bit = key(nibbles)
        bits[Int(bit >> 6)] |= 1 << (bit & 63)
    }

    /// Whether the sample a stored add line (`line` of the batch storage `raw`) adds is in
    /// the set: the answer of the full check (``BatchLines/uuid(of:in:)`` and a lookup),
    /// which is skipped when the bitmap says no. That shortcut reads the eight bytes where
    /// the UUID starts when the sequence number is written in its shortest form, and is
    /// taken only then (checked by the byte after the digits, which must be the comma the
    /// full check's prefix starts with), so both read the same eight bytes.
    func contains(_ line: BatchLines.Line, in raw: UnsafeRawBufferPointer) -> Bool {
        let digitsEnd = line.start + Self.seqPrefixLength + Self.decimalDigits(line.seq)
        let at = digitsEnd + Self.addPrefixLength
        if at + 36 <= line.end, raw[digitsEnd] == UInt8(ascii: ","), !mayContain(raw.baseAddress! + at) { return false }
        guard let uuid = BatchLines.uuid(of: line, in: raw) else { return false }
        return index[uuid] != nil
    }

    /// Whether the stored add line `line`, whose 36 bytes of UUID text start at `at`
    /// (``StoredLinePrefix/uuidOffset(_:isDelete:)``), is of a sample in the set.
    func contains(_ line: UnsafeRawBufferPointer, uuidAt at: Int) -> Bool {
        guard count > 0, mayContain(line.baseAddress! + at),
            let uuid = SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: line[at..<at + 36]))
        else { return false }
        return index[uuid] != nil
    }

    /// Whether the bitmap's bit of the UUID text at `text` (its first eight digits) is set:
    /// `false` means the UUID is not in the set.
    @inline(__always)
    private func mayContain(_ text: UnsafeRawPointer) -> Bool {
        let word = UInt64(littleEndian: text.loadUnaligned(as: UInt64.self))
        // A hex digit's value: its low four bits, plus 9 for a letter (bit 6 set).
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word >> 6) & 0x0101_0101_0101_0101) &* 9
        let bit = key(nibbles)
        return bits[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }

    @inline(__always)
    private func key(_ nibbles: UInt64) -> UInt64 {
        (nibbles &* 0x9E37_79B9_7F4A_7C15) >> shift
    }

    private static let seqPrefixLength = StoredLinePrefix.seq.utf8CodeUnitCount
    private static let addPrefixLength = StoredLinePrefix.add.utf8CodeUnitCount

    /// The number of decimal digits of `value` (at least 1).
    @inline(__always)
    private static func decimalDigits(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}
