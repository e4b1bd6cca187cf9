/// The fixed part of a batch header payload, read in place: what a walk over a sidecar
/// index needs (the store, the sequence range, where the next batch starts) without
/// decoding the groups. Beside ``BatchHeader/decode(payload:verifyingChecksum:names:)``,
/// which defines the layout these offsets follow.
extension BatchHeader {
    /// The fields every batch header payload holds at fixed offsets (see
    /// ``BatchHeader/encoded()``), read without decoding its groups.
    struct FixedFields {
        /// The header's format version.
        var version: UInt16
        /// The store the batch belongs to.
        var storeTag: UInt64
        /// The batch's first sequence number.
        var firstSeq: UInt64
        /// The batch's last sequence number.
        var lastSeq: UInt64
        /// The bytes of the batch's frames after its header.
        var framesLength: Int
        /// The batch's flags (``FormatConstants/flagEndOfAppend`` and the others).
        var flags: UInt16

        /// Whether the batch ends an append.
        var isEndOfAppend: Bool { flags & FormatConstants.flagEndOfAppend != 0 }

        /// The bytes before the first group: tag, version, flags, store tag, sequence range,
        /// append time, frames length, group count and padding; a payload also ends with its
        /// CRC-32C.
        static let length = 48
        /// Where the u16 group count lies in the fixed fields.
        static let groupCountOffset = 44

        /// The fields of `payload`; `nil` when it is too short or not tagged `HLBA`. They
        /// are in clear in a sealed header too, so a reader without the key (a backup) walks
        /// an encrypted store's batches by them.
        init?(_ payload: UnsafeRawBufferPointer) {
            guard payload.count >= Self.length + 4, payload.prefix(4).elementsEqual(FormatConstants.batchTag) else { return nil }
            version = UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
            flags = UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: 6, as: UInt16.self))
            storeTag = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            firstSeq = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            lastSeq = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            framesLength = Int(UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: 40, as: UInt32.self)))
        }
    }
}
