#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fixed start of every stored line: `{"seq":N,"op":"add","uuid":"U"` (or `"delete"`).
/// ``LineEncoder`` writes it and every reader that takes the sequence number or the UUID
/// from its fixed place reads it here, so the two cannot drift apart.
enum StoredLinePrefix {
    /// What every stored line starts with.
    static let seq: StaticString = #"{"seq":"#
    /// What follows the sequence number of an add, up to its UUID.
    static let add: StaticString = #","op":"add","uuid":""#
    /// What follows the sequence number of a delete, up to its UUID.
    static let delete: StaticString = #","op":"delete","uuid":""#

    /// The bytes of `text`.
    static func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// The sequence number at the start of `line`, and the index just past its digits;
    /// `nil` when the line does not start with ``seq`` followed by a digit.
    static func sequenceNumber(_ line: UnsafeRawBufferPointer) -> (seq: UInt64, end: Int)? {
        let prefix = bytes(seq)
        guard line.count > prefix.count, memcmp(line.baseAddress!, prefix.baseAddress!, prefix.count) == 0 else { return nil }
        var at = prefix.count
        var value: UInt64 = 0
        while at < line.count, line[at] >= 48, line[at] <= 57, value < UInt64.max / 10 {
            value = value * 10 + UInt64(line[at] - 48)
            at += 1
        }
        return at > prefix.count ? (value, at) : nil
    }

    /// The UUID of a stored line, read at its fixed place after the sequence number.
    static func uuid(_ line: UnsafeRawBufferPointer, isDelete: Bool) -> SampleUUID? {
        guard let at = uuidOffset(line, isDelete: isDelete) else { return nil }
        return SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: line[at..<at + 36]))
    }

    /// Where the 36 bytes of a stored line's UUID text start, when the line holds its
    /// prefix (not checked: that they are a UUID).
    static func uuidOffset(_ line: UnsafeRawBufferPointer, isDelete: Bool) -> Int? {
        guard let number = sequenceNumber(line) else { return nil }
        let op = bytes(isDelete ? delete : add)
        let at = number.end + op.count
        guard at + 36 <= line.count, memcmp(line.baseAddress! + number.end, op.baseAddress!, op.count) == 0 else { return nil }
        return at
    }

    /// What follows a stored line's UUID, up to its type identifier.
    static let type: StaticString = #"","type":""#

    /// Whether stored `line` is of type `type`: its `"type"` field, which follows the UUID,
    /// holds exactly that identifier. Compared in place, without building a string.
    static func hasType(_ line: UnsafeRawBufferPointer, _ type: String, isDelete: Bool) -> Bool {
        guard let at = uuidOffset(line, isDelete: isDelete) else { return false }
        let field = bytes(Self.type)
        let name = at + 36 + field.count
        guard name <= line.count, memcmp(line.baseAddress! + at + 36, field.baseAddress!, field.count) == 0 else { return false }
        let utf8 = type.utf8
        let end = name + utf8.count
        guard end < line.count, line[end] == UInt8(ascii: "\"") else { return false }
        return utf8.withContiguousStorageIfAvailable { memcmp(line.baseAddress! + name, $0.baseAddress!, $0.count) == 0 }
            ?? UnsafeRawBufferPointer(rebasing: line[name..<end]).elementsEqual(utf8)
    }
}
