/// The parts of a TZif file (RFC 8536) that ``TimeZoneRules`` uses: the transitions and
/// their offsets (from the 64-bit data block of a version 2+ file, else the 32-bit one) and
/// the footer's POSIX TZ string.
struct TZifFile {
    /// Transition instants, seconds since 1970 UTC, ascending.
    var transitions: [Int64] = []
    /// The offset from each transition on, seconds east of UTC.
    var offsets: [Int32] = []
    /// The offset before the first transition (the first standard-time type, RFC 8536 §3.2).
    var initialOffset: Int32 = 0
    /// The footer's TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`), when there is one.
    var footer: String?

    /// Parses `bytes`; `nil` when they are not a well-formed TZif file.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 44, bytes[0] == 84, bytes[1] == 90, bytes[2] == 105, bytes[3] == 102 else { return nil }
        let version = bytes[4]
        guard let first = Self.block(bytes, at: 0, timeSize: 4) else { return nil }
        var block = first
        if version >= 50, let second = Self.block(bytes, at: first.end, timeSize: 8) {
            block = second
            let rest = bytes[second.end...]
            if rest.first == 10, let close = rest.dropFirst().firstIndex(of: 10) {
                let text = String(decoding: bytes[(second.end + 1)..<close], as: UTF8.self)
                footer = text.isEmpty ? nil : text
            }
        }
        transitions = block.transitions
        offsets = block.transitionTypes.map { block.types[Int($0)].offset }
        initialOffset = (block.types.first { !$0.isDST } ?? block.types[0]).offset
    }

    /// One data block: its transitions, their type indexes, the types, and where it ends.
    private struct Block {
        /// Transition instants.
        var transitions: [Int64]
        /// Each transition's index into `types`.
        var transitionTypes: [UInt8]
        /// The local time types: offset east in seconds, and whether it is daylight time.
        var types: [(offset: Int32, isDST: Bool)]
        /// Where the block ends in the file.
        var end: Int
    }

    /// The header at `at` and the data block after it, with times of `timeSize` bytes.
    private static func block(_ b: [UInt8], at: Int, timeSize: Int) -> Block? {
        guard at + 44 <= b.count, b[at] == 84, b[at + 1] == 90 else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        func s64(_ i: Int) -> Int64 {
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(b[i + k]) }
            return Int64(bitPattern: v)
        }
        let isutc = u32(at + 20), isstd = u32(at + 24), leap = u32(at + 28), timecnt = u32(at + 32), typecnt = u32(at + 36), charcnt = u32(at + 40)
        guard typecnt > 0 else { return nil }
        var i = at + 44
        let size = timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leap * (timeSize + 4) + isstd + isutc
        guard i + size <= b.count else { return nil }
        var transitions: [Int64] = []
        for k in 0..<timecnt {
            let p = i + k * timeSize
            transitions.append(timeSize == 8 ? s64(p) : Int64(Int32(truncatingIfNeeded: u32(p))))
        }
        i += timecnt * timeSize
        let indexes = Array(b[i..<(i + timecnt)])
        i += timecnt
        guard indexes.allSatisfy({ Int($0) < typecnt }) else { return nil }
        var types: [(offset: Int32, isDST: Bool)] = []
        for k in 0..<typecnt {
            let p = i + k * 6
            types.append((Int32(truncatingIfNeeded: u32(p)), b[p + 4] != 0))
        }
        return Block(transitions: transitions, transitionTypes: indexes, types: types, end: at + 44 + size)
    }
}
