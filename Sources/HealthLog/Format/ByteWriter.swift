/// Appends little-endian integers and raw bytes to a growing byte array: the encoder of
/// every binary structure in the format (segment and batch headers, anchors, checkpoints).
struct ByteWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// Appends `value` in little-endian order.
    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    mutating func append(bytes other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends the CRC-32C of everything written so far.
    mutating func appendChecksum() {
        let crc = bytes.withUnsafeBytes { CRC32C.checksum($0) }
        append(crc)
    }
}

/// Reads little-endian integers from a byte buffer, refusing to read past its end.
///
/// Every read is bounds-checked and throws ``Truncated`` instead of trapping, so a damaged
/// or hostile length field can never crash the reader.
struct ByteReader {
    /// Thrown when a read would go past the end of the buffer.
    struct Truncated: Error {}

    /// The buffer being read.
    let bytes: ArraySlice<UInt8>
    /// The next position to read, from the buffer's start.
    private(set) var position: Int

    /// Starts reading `bytes` at `position`.
    init(_ bytes: [UInt8], at position: Int = 0) {
        self.init(bytes[...], at: position)
    }

    /// Starts reading `bytes` at `position`, counted from the slice's start; what
    /// ``read(count:)`` gives shares the slice's storage.
    init(_ bytes: ArraySlice<UInt8>, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// The bytes not read yet.
    var remaining: Int { bytes.count - position }

    /// Reads an integer of type `T` in little-endian order.
    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw Truncated() }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: T.self) }
        position += size
        return T(littleEndian: value)
    }

    /// Reads `count` raw bytes.
    mutating func read(count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw Truncated() }
        defer { position += count }
        return bytes[bytes.startIndex + position..<bytes.startIndex + position + count]
    }
}

/// Reads one little-endian value at a fixed offset of a byte array.
enum ByteReaderValue {
    /// The `UInt16` at `offset`, or 0 when out of range.
    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        guard offset + 2 <= bytes.count else { return 0 }
        return bytes.withUnsafeBytes { UInt16(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    }

    /// The `UInt32` at `offset`, or 0 when out of range.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// The `UInt64` at `offset`, or 0 when out of range.
    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        guard offset + 8 <= bytes.count else { return 0 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
}
