/// The numbers of the on-disk format, shared by every reader and writer.
/// The Format article explains each one.
enum FormatConstants {
    /// The format version this build writes and the newest it reads.
    static let version: UInt16 = 1
    /// The format version of an encrypted store's `meta`: builds that read only version 1
    /// refuse the store rather than write plaintext into it.
    static let encryptedVersion: UInt16 = 2
    /// The `encryption` line's value in an encrypted store's `meta`: the AEAD of its units.
    static let cipherName = "xchacha20poly1305"
    /// The bytes that open every encrypted unit's associated data.
    static let unitAssociatedTag: [UInt8] = Array("healthlog unit v1".utf8)
    /// The layout version of the `checkpoint` record, its own so that a new store format
    /// version leaves every existing checkpoint readable.
    static let checkpointVersion: UInt16 = 1

    /// The layout version of segment indexes (`segments/*.idx`) this build writes and reads.
    /// Indexes are derived data with versions of their own: a file of any other version is
    /// ignored and rebuilt, never reported as damage. Version 1 (earlier builds) kept the
    /// CRC-32C of the last batch's whole header payload, which is the same for every batch;
    /// version 2 keeps the CRC-32C of that payload without its own trailing CRC-32C.
    static let segmentIndexVersion: UInt16 = 2
    /// The layout version of the append's scratch runs (``UUIDRun``, tag `HLUS`) this build
    /// writes and reads. The same 32-byte layout tagged `HLUR` (version 1) is the sealed UUID
    /// index of older builds, which this build ignores and rebuilds.
    static let uuidRunVersion: UInt16 = 1
    /// The layout version of the store's sealed UUID-index runs (`uuids/*.run`, tag `HLUR`,
    /// ``UUIDFingerprintRun``) this build writes and reads. Version 1 was the 32-byte
    /// ``UUIDRun`` (full UUID, add and delete sequence numbers); version 2 keeps a
    /// fingerprint and a block of sequence numbers per event, confirmed against the log;
    /// version 3 adds the ``LogBinding`` of the batch ending at the run's last number;
    /// version 4 seals an encrypted store's run in pages of 4 KiB, each its own unit.
    static let uuidIndexVersion: UInt16 = 4
    /// The layout version of the sync-identifier table (`uuids/sync`) this build writes and reads.
    /// Version 1 had a 28-byte header without the ``LogBinding``; version 2 binds the table
    /// to the store and to the batch ending at the number it covers.
    static let syncTableVersion: UInt16 = 2
    /// The layout version of the deleted-add index (`uuids/deleted-adds`) this build writes and reads.
    /// Version 1 had a 40-byte header without the ``LogBinding``; version 2 binds the file to
    /// the store and to the batch ending at the number it covers; version 3 adds each block's
    /// witness digest to the block table.
    static let deletedAddIndexVersion: UInt16 = 3

    /// LZ4 frame magic number (a data frame).
    static let lz4FrameMagic: UInt32 = 0x184D_2204
    /// Skippable-frame magic of the segment header.
    static let segmentHeaderMagic: UInt32 = 0x184D_2A50
    /// Skippable-frame magic of a batch header.
    static let batchHeaderMagic: UInt32 = 0x184D_2A51

    /// Tag at the start of the segment header payload.
    static let segmentTag: [UInt8] = Array("HLSG".utf8)
    /// Tag at the start of the batch header payload.
    static let batchTag: [UInt8] = Array("HLBA".utf8)

    /// Length of the segment header's payload in bytes.
    static let segmentHeaderPayloadLength = 48
    /// The largest batch header payload a reader accepts (bounds allocation on damaged input).
    static let maxBatchHeaderLength = 1 << 20
    /// The largest uncompressed group frame a reader accepts.
    static let maxGroupRawLength = 256 << 20
    /// LZ4 turns one stored byte into at most 255: a group whose raw length is more than
    /// this many times its frame length cannot be, and is refused before anything is
    /// allocated for it.
    static let maxLZ4Expansion: UInt64 = 256
    /// Every stored line is longer than this (`{"seq":N,"op":"add","uuid":"…36…"}` alone
    /// is), so a group's event count is at most its raw length over it: what a header
    /// claims stays proportional to the bytes behind it.
    static let minStoredLineLength: UInt64 = 64
    /// Sequence numbers stay below this (no log gets near it), so `seq + 1` and `Int(seq)`
    /// never overflow on what a damaged or forged header says.
    static let maxSequence: UInt64 = 1 << 62
    /// The largest number of type groups in one batch.
    static let maxGroupCount = 4096

    /// The batch header version of a batch `compact` rewrote: version 1 plus the list of
    /// dropped events (``BatchHeader/dropped``). Other batches keep version 1.
    static let compactedBatchVersion: UInt16 = 2
    /// The batch header version of a batch that records its append's origin
    /// (``BatchHeader/origin``): version 2's layout, then the origin record.
    static let originBatchVersion: UInt16 = 3

    /// Batch flag: this batch ends an append (an append is visible once its last batch is).
    static let flagEndOfAppend: UInt16 = 1 << 0
    /// Batch flag: the batch holds delete events.
    static let flagHasDeletes: UInt16 = 1 << 1
    /// Batch flag: the batch is an encrypted store's: its header's table and its group
    /// frames are sealed units (``StoreCipher``).
    static let flagSealed: UInt16 = 1 << 2

    /// Group kind: add events.
    static let groupKindAdd: UInt8 = 0
    /// Group kind: delete events.
    static let groupKindDelete: UInt8 = 1

    /// The largest batch size a writer accepts (a group then stays far below
    /// ``maxGroupRawLength`` even with a 16 MiB line on top).
    static let maxBatchBytes = 128 << 20
    /// Default uncompressed size at which a batch is closed.
    static let defaultBatchBytes = 1 << 20
    /// Default size at which a segment is sealed and a new one started.
    static let defaultSegmentBytes = 64 << 20

    /// The first line of the `meta` file.
    static let metaHeader = "healthlog-store"
}
