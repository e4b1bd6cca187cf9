/// The header that opens every segment file, after an empty LZ4 frame: a skippable frame
/// (magic ``FormatConstants/segmentHeaderMagic``) whose 48-byte payload names the store,
/// the segment's first sequence number and its generation.
struct SegmentHeader: Equatable, Sendable {
    /// The store's identity.
    var storeID: StoreID
    /// The sequence number of the first event the segment holds.
    var baseSeq: UInt64
    /// The segment's generation (0 until compaction rewrites it).
    var generation: UInt32
    /// When the segment was created, in milliseconds since 1970.
    var createdMillis: Int64

    /// The bytes of the whole skippable frame: magic, length, payload.
    func encoded() -> [UInt8] {
        var payload = ByteWriter()
        payload.append(bytes: FormatConstants.segmentTag)
        payload.append(FormatConstants.version)
        payload.append(UInt16(0))
        payload.append(bytes: storeID.bytes)
        payload.append(baseSeq)
        payload.append(generation)
        payload.append(createdMillis)
        payload.appendChecksum()
        var frame = ByteWriter()
        frame.append(FormatConstants.segmentHeaderMagic)
        frame.append(UInt32(payload.bytes.count))
        frame.append(bytes: payload.bytes)
        return frame.bytes
    }

    /// The size of the encoded frame.
    static let encodedLength = 8 + FormatConstants.segmentHeaderPayloadLength

    /// Decodes the frame at the start of `bytes`; throws a message naming what is wrong.
    static func decode(_ bytes: [UInt8]) throws -> SegmentHeader {
        var reader = ByteReader(bytes)
        do {
            guard try reader.read(UInt32.self) == FormatConstants.segmentHeaderMagic else {
                throw FormatViolation("segment header magic is missing")
            }
            guard try reader.read(UInt32.self) == UInt32(FormatConstants.segmentHeaderPayloadLength) else {
                throw FormatViolation("segment header has the wrong length")
            }
            let payloadStart = reader.position
            guard Array(try reader.read(count: 4)) == FormatConstants.segmentTag else {
                throw FormatViolation("segment header tag is not HLSG")
            }
            let version = try reader.read(UInt16.self)
            _ = try reader.read(UInt16.self)
            let id = StoreID(bytes: Array(try reader.read(count: 16)))
            let base = try reader.read(UInt64.self)
            let generation = try reader.read(UInt32.self)
            let created = try reader.read(Int64.self)
            let crcEnd = reader.position
            let stored = try reader.read(UInt32.self)
            guard CRC32C.checksum(bytes[payloadStart..<crcEnd]) == stored else {
                throw FormatViolation("segment header checksum mismatch")
            }
            guard version <= FormatConstants.version else {
                throw FormatViolation(
                    "segment was written by format version \(version); this healthlog reads up to \(FormatConstants.version)",
                    isNewerVersion: true)
            }
            return SegmentHeader(storeID: id, baseSeq: base, generation: generation, createdMillis: created)
        } catch is ByteReader.Truncated {
            throw FormatViolation("segment header is truncated")
        } catch let violation as FormatViolation {
            throw violation
        } catch {
            throw FormatViolation("segment header is unreadable")
        }
    }
}

/// A violation of the on-disk format found while decoding, without its location yet
/// (the caller adds the file and offset).
struct FormatViolation: Error, Sendable {
    /// What is wrong.
    var reason: String
    /// Whether the data comes from a newer format version.
    var isNewerVersion: Bool = false
    /// Set for a sealed batch table whose checksum holds but which does not open: never a
    /// torn tail (its bytes are those written). The epoch it names when the keys lack it,
    /// else 0 (it does not authenticate: changed with its checksum, or moved).
    var unopened: UInt32?

    init(_ reason: String, isNewerVersion: Bool = false) {
        self.reason = reason
        self.isNewerVersion = isNewerVersion
    }
}
