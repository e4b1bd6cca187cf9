/// A segment index's sealed copy of its batch tables, opened, in the layout its index
/// header names (<doc:Format#Segment-index>): the whole layout (``SealedTableCopy``) or the
/// by-type one (``SealedTypeTables``).
enum OpenedTableCopy {
    case whole(SealedTableCopy)
    case byType(SealedTypeTables)

    /// The most bytes of a copy a reader opens at once: a by-type copy's directory, or a copy
    /// in the whole layout. A copy that lists dropped events (one written by earlier builds)
    /// of a compacted segment is past it, and is left: its batches' own tables are opened one
    /// at a time instead, about the same bytes to open, never all of them held.
    static let readerBound = 4 << 20

    /// Whether `copy` (the bytes after the entries of an index whose header starts with
    /// `header`) is within ``readerBound``.
    static func isWithinReaderBound(_ copy: UnsafeRawBufferPointer, header: some Collection<UInt8>) -> Bool {
        guard SegmentIndex.isCopyByType(Array(header)) else { return copy.count <= readerBound }
        return copy.count < 4 || Int(UInt32(littleEndian: copy.loadUnaligned(as: UInt32.self))) <= readerBound
    }

    /// Opens `copy`, the bytes after the entries of an index of `batchCount` batches whose
    /// header starts with `header`; of a by-type copy, the units of `types` only (every
    /// type's when `nil`). `nil` when it does not open or add up, with `failedAt` set to
    /// where in `copy` the unit that does not open starts (0 for a copy in the whole layout).
    static func open(
        _ copy: UnsafeRawBufferPointer, header: [UInt8], cipher: StoreCipher, batchCount: Int, types: Set<String>? = nil, failedAt: inout Int
    ) -> OpenedTableCopy? {
        guard SegmentIndex.isCopyByType(header) else {
            failedAt = 0
            return SealedTableCopy.open(copy, cipher: cipher, place: SegmentIndex.copyPlace(header), batchCount: batchCount).map(OpenedTableCopy.whole)
        }
        return SealedTypeTables.open(
            copy, cipher: cipher, place: { SegmentIndex.copyPlace(header, unit: $0) }, batchCount: batchCount, listsDropped: !SegmentIndex.isCopyOfCounts(header),
            types: types, failedAt: &failedAt
        ).map(OpenedTableCopy.byType)
    }

    /// ``open(_:header:cipher:batchCount:types:failedAt:)`` of a copy read into memory the
    /// caller gives up, whose directory a by-type copy opens where it lies
    /// (``SealedTypeTables/open(owned:cipher:place:batchCount:types:failedAt:)``).
    static func open(
        owned copy: consuming [UInt8], header: [UInt8], cipher: StoreCipher, batchCount: Int, types: Set<String>? = nil, failedAt: inout Int
    ) -> OpenedTableCopy? {
        guard SegmentIndex.isCopyByType(header) else {
            return copy.withUnsafeBytes { open($0, header: header, cipher: cipher, batchCount: batchCount, types: types, failedAt: &failedAt) }
        }
        return SealedTypeTables.open(
            owned: consume copy, cipher: cipher, place: { SegmentIndex.copyPlace(header, unit: $0) }, batchCount: batchCount,
            listsDropped: !SegmentIndex.isCopyOfCounts(header), types: types, failedAt: &failedAt
        ).map(OpenedTableCopy.byType)
    }

    /// The table of batch `index` when `payload` shows the clear bytes the copy recorded for
    /// it (``SealedTableCopy/table(_:payload:)``, ``SealedTypeTables/table(_:payload:)``).
    func table(_ index: Int, payload: ArraySlice<UInt8>) -> BatchHeader.CopiedTable? {
        switch self {
        case .whole(let copy): copy.table(index, payload: payload)
        case .byType(let copy): copy.table(index, payload: payload)
        }
    }
}
