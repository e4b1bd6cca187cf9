#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One kind of small checksummed file of a store, and the envelope every such file shares
/// (the Format article's "Small files"): the checkpoint, the timelines and compactions
/// records, segment indexes, UUID-index runs, the append's scratch runs, the deleted-add
/// index and the sync table, each with a tag of its own.
///
/// A file opens with a sealed header: the kind's four-byte tag, u16 version, u16 0, the
/// kind's fields, then u32 CRC-32C of every header byte before it. A record is all header;
/// an index follows its header with a body the header vouches for (a CRC-32C of the body,
/// or of a block table that lists one per block). The header's fields give the file's
/// length (``length``). A reader takes nothing from a file before ``open(_:fileLength:)``
/// has checked its tag, version, header checksum and length; a writer replaces the file
/// whole through ``DurableFile`` (``write(_:_:sync:syncDirectory:)``).
struct SmallFile: Sendable {
    /// The four bytes that open every file of this kind.
    let tag: [UInt8]
    /// The layout version this build writes and reads.
    let version: UInt16
    /// The sealed header's length in bytes; `nil` for a record, whose header is the whole file.
    let headerLength: Int?
    /// The file's length that the header `header` gives; `nil` when its fields cannot
    /// describe a file (a count past any bound). `nil` for a kind whose body runs to the end
    /// of the file and is checked by its checksum and by decoding it whole.
    let length: (@Sendable (_ header: [UInt8]) -> Int?)?

    /// A kind tagged `tag` (four ASCII letters) at `version`.
    init(tag: String, version: UInt16, headerLength: Int?, length: (@Sendable (_ header: [UInt8]) -> Int?)?) {
        precondition(tag.utf8.count == 4, "a tag is four bytes")
        self.tag = Array(tag.utf8)
        self.version = version
        self.headerLength = headerLength
        self.length = length
    }

    /// The fewest bytes a file of this kind takes: tag, version, 0 and the header checksum.
    static let minimumLength = 12

    /// This kind as an encrypted store keeps it: the same header, its body sealed in `units`
    /// (given the header) units of ``StoreCipher/Purpose/derivedFile``, each
    /// ``StoreCipher/overhead`` bytes longer than its plaintext, so the file is that much
    /// longer than ``length`` gives.
    func sealed(units: @escaping @Sendable (_ header: [UInt8]) -> Int) -> SmallFile {
        var sealedLength: (@Sendable ([UInt8]) -> Int?)?
        if let length {
            sealedLength = { header in length(header).map { $0 + units(header) * StoreCipher.overhead } }
        }
        return SmallFile(tag: String(decoding: tag, as: UTF8.self), version: version, headerLength: headerLength, length: sealedLength)
    }

    /// The first bytes of a header of this kind: tag, version, 0, then `fields` (those that
    /// name what the file holds: its range and counts), without the checksum. A sealed
    /// unit's `place` is these bytes and the unit's number (``place(_:unit:)``), so a unit
    /// moved within its file, or to a file of another kind, name or range, does not open.
    func prefix(_ fields: (inout ByteWriter) -> Void) -> [UInt8] {
        var w = ByteWriter()
        w.append(bytes: tag)
        w.append(version)
        w.append(UInt16(0))
        fields(&w)
        return w.bytes
    }

    /// The `place` of unit `unit` of a file whose header starts with `prefix` (see
    /// ``prefix(_:)``).
    static func place(_ prefix: some Collection<UInt8>, unit: UInt32) -> [UInt8] {
        var w = ByteWriter()
        w.append(bytes: prefix)
        w.append(unit)
        return w.bytes
    }

    /// A file of this kind: the sealed header of `fields` (written after the tag, version
    /// and 0), then `body`.
    func encode(body: [UInt8] = [], _ fields: (inout ByteWriter) -> Void) -> [UInt8] {
        var w = ByteWriter()
        w.append(bytes: tag)
        w.append(version)
        w.append(UInt16(0))
        fields(&w)
        w.appendChecksum()
        precondition(headerLength.map { w.bytes.count == $0 } ?? body.isEmpty, "the header has its kind's length")
        return body.isEmpty ? w.bytes : w.bytes + body
    }

    /// `bytes`, a file of this kind, with the header fields at `offset` replaced by `fields`
    /// and the header sealed anew.
    func resealed(_ bytes: [UInt8], at offset: Int, with fields: [UInt8]) -> [UInt8] {
        var out = bytes
        reseal(&out, at: offset, with: fields)
        return out
    }

    /// Replaces the header fields at `offset` of `bytes`, a file of this kind, with
    /// `fields` and seals the header anew, in place.
    func reseal(_ bytes: inout [UInt8], at offset: Int, with fields: [UInt8]) {
        let headerLength = headerLength ?? bytes.count
        precondition(offset >= 8 && offset + fields.count <= headerLength - 4, "header fields of a file of this kind")
        bytes.replaceSubrange(offset..<offset + fields.count, with: fields)
        let seal = CRC32C.checksum(bytes[0..<headerLength - 4]).littleEndian
        withUnsafeBytes(of: seal) { bytes.replaceSubrange(headerLength - 4..<headerLength, with: $0) }
    }

    /// Checks the start of a file of this kind, `bytes` (at least its header; all of a
    /// record) from a file `fileLength` bytes long (default: `bytes.count`): the tag, the
    /// version, the header checksum, and that the header gives that length. Returns a reader
    /// at the header's first field; `nil` when any check fails.
    func open(_ bytes: [UInt8], fileLength: Int? = nil) -> ByteReader? {
        let headerLength = headerLength ?? bytes.count
        guard headerLength >= Self.minimumLength, bytes.count >= headerLength,
            IndexVersion(bytes, tag: tag, current: version) == .current,
            CRC32C.checksum(bytes[0..<headerLength - 4]) == ByteReaderValue.u32(bytes, headerLength - 4)
        else { return nil }
        if let length {
            let header = bytes.count == headerLength ? bytes : Array(bytes[0..<headerLength])
            guard length(header) == fileLength ?? bytes.count else { return nil }
        }
        return ByteReader(bytes, at: 8)
    }

    /// Reads the whole file at `path` for ``open(_:fileLength:)``: `nil` when it is missing.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when it is longer than `maxLength` (never
    ///   read on a file's word), and as ``FileDescriptor/open(_:flags:mode:)`` and
    ///   ``FileDescriptor/read(at:count:)`` do.
    static func read(_ path: String, maxLength: Int = 1 << 30) throws -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, flags: O_RDONLY)
        } catch let error as HealthLogError where error.errno == ENOENT {
            return nil
        }
        defer { fd.close() }
        let size = try fd.size()
        guard size <= maxLength else { throw HealthLogError(.corrupt, "\(path): \(size) bytes, more than a file of its kind takes") }
        return try fd.read(at: 0, count: size)
    }

    /// Replaces the file at `path` with `bytes` (``DurableFile/replace(_:with:sync:syncDirectory:)``):
    /// records synced, derived files with `sync: false` (rebuilt from the log when lost).
    static func write(_ path: String, _ bytes: [UInt8], sync: Bool, syncDirectory: Bool = true) throws {
        try DurableFile.replace(path, with: bytes, sync: sync, syncDirectory: syncDirectory)
    }
}
