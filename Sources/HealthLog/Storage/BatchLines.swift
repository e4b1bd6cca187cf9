#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decompresses chosen groups of a batch and lists their lines in sequence order.
///
/// Stored lines start with `{"seq":N,"op":"add","uuid":"…"` (or `"delete"`), so the
/// sequence number, the operation and the UUID are read at fixed places without parsing
/// the line as JSON.
struct BatchLines {
    /// One line: which buffer holds it and where.
    struct Line {
        var seq: UInt64
        var buffer: Int
        var start: Int
        var end: Int
        var isDelete: Bool
    }

    /// The decompressed groups.
    private(set) var buffers: [[UInt8]] = []
    /// The lines, in sequence order.
    private(set) var lines: [Line] = []

    /// Loads `groups` (indexes into the header's groups) of `batch`.
    mutating func load(_ snapshot: LogSnapshot, _ batch: BatchRef, groups: [Int]) throws {
        lines.removeAll(keepingCapacity: true)
        while buffers.count < groups.count { buffers.append([]) }
        for (k, g) in groups.enumerated() {
            try snapshot.readGroup(batch, g, into: &buffers[k])
            let before = lines.count
            let entry = batch.header.groups[g]
            if let reason = Self.split(buffers[k], buffer: k, isDelete: entry.isDelete, into: &lines) {
                throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.groupOffsets[g])): \(reason)")
            }
            let found = lines.count - before
            guard found == Int(entry.count), found > 0, lines[before].seq == entry.firstSeq, lines[lines.count - 1].seq == entry.lastSeq else {
                throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.groupOffsets[g])): frame holds \(found) events, its header says \(entry.count) (\(entry.firstSeq)...\(entry.lastSeq))")
            }
        }
        if groups.count > 1 { lines.sort { $0.seq < $1.seq } }
    }

    /// The bytes of `line`, newline included.
    func bytes(of line: Line) -> ArraySlice<UInt8> {
        buffers[line.buffer][line.start..<line.end]
    }

    /// The UUID of a stored line, read at its fixed place.
    func uuid(of line: Line) -> SampleUUID? {
        let buffer = buffers[line.buffer]
        var at = line.start + 7
        while at < line.end, buffer[at] != 44 { at += 1 }
        at += line.isDelete ? 23 : 20
        guard at + 36 <= line.end else { return nil }
        return buffer.withUnsafeBytes { SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: $0[at..<at + 36])) }
    }

    /// Splits a decompressed group into lines, reading each line's sequence number and
    /// checking that they rise; returns what is wrong, or `nil`.
    private static func split(_ buffer: [UInt8], buffer index: Int, isDelete: Bool, into lines: inout [Line]) -> String? {
        let prefix: [UInt8] = Array(#"{"seq":"#.utf8)
        return buffer.withUnsafeBytes { raw -> String? in
            var start = 0
            var previous: UInt64 = 0
            let n = raw.count
            while start < n {
                guard start + 8 < n, raw[start] == prefix[0], raw[start + 1] == prefix[1], raw[start + 6] == prefix[6] else {
                    return ("line at byte \(start) of the frame does not start with {\"seq\":")
                }
                var at = start + 7
                var seq: UInt64 = 0
                while at < n, raw[at] >= 48, raw[at] <= 57, seq < UInt64.max / 10 {
                    seq = seq * 10 + UInt64(raw[at] - 48)
                    at += 1
                }
                guard seq > previous else { return ("sequence numbers in the frame do not rise at byte \(start)") }
                previous = seq
                guard let found = memchr(raw.baseAddress! + at, 10, n - at) else { return "last line of the frame has no newline" }
                at = raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                lines.append(Line(seq: seq, buffer: index, start: start, end: at + 1, isDelete: isDelete))
                start = at + 1
            }
            return nil
        }
    }
}
