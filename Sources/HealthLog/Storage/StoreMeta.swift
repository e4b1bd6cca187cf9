#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `meta` file: the store's identity and the format version it was created with; an
/// encrypted store's is format 2 and names its cipher.
///
/// ```
/// healthlog-store
/// format 2
/// id 6F1C0D2E-9B7A-4E43-8C55-2D7A1F0E9B31
/// encryption xchacha20poly1305
/// ```
struct StoreMeta: Sendable, Equatable {
    /// The store's identity.
    var storeID: StoreID
    /// The format version.
    var version: UInt16
    /// Whether the store is encrypted (``StoreCipher``).
    var isEncrypted = false

    /// The `meta` of a new store `storeID`, encrypted or not.
    static func new(_ storeID: StoreID, encrypted: Bool) -> StoreMeta {
        StoreMeta(storeID: storeID, version: encrypted ? FormatConstants.encryptedVersion : FormatConstants.version, isEncrypted: encrypted)
    }

    /// The file's text.
    var text: String {
        "\(FormatConstants.metaHeader)\nformat \(version)\nid \(storeID.text)\n"
            + (isEncrypted ? "encryption \(FormatConstants.cipherName)\n" : "")
    }

    /// Reads and checks the `meta` file of `layout`, that the store directory is this
    /// user's and private (mode 0700), and that the store holds no named pipe, socket or
    /// device (``SpecialFileCheck``), as every reader and writer of a store requires.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no `meta`;
    ///   ``HealthLogError/Code/unsafeFile`` when `meta`, the directory or a file in it may
    ///   not be used.
    static func read(_ layout: StoreLayout) throws -> StoreMeta {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(layout.meta, flags: O_RDONLY)
        } catch let error as HealthLogError {
            if error.errno == ENOENT {
                throw HealthLogError(.noStore, "no healthlog store at \(layout.directory)")
            }
            throw error
        }
        defer { fd.close() }
        try OwnedDirectory.check(layout.directory, isPrivate: true, isNamedByUser: true)
        try SpecialFileCheck.refuse(in: layout.directory)
        let bytes = try fd.read(at: 0, count: 4096)
        let lines = Self.lines(bytes)
        guard lines.count >= 3, lines[0] == FormatConstants.metaHeader, lines[1].hasPrefix("format "),
            let version = UInt16(lines[1].dropFirst(7)), lines[2].hasPrefix("id "),
            let id = StoreID(text: String(lines[2].dropFirst(3)))
        else {
            throw HealthLogError(.corrupt, "\(layout.meta): not a healthlog meta file")
        }
        guard version <= FormatConstants.encryptedVersion else {
            throw HealthLogError(
                .unsupportedVersion,
                "\(layout.directory) was written by healthlog format version \(version); this healthlog reads up to version \(FormatConstants.encryptedVersion): upgrade healthlog")
        }
        let cipher = lines.dropFirst(3).first { $0.hasPrefix("encryption ") }.map { String($0.dropFirst(11)) }
        guard (version == FormatConstants.encryptedVersion) == (cipher != nil) else {
            throw HealthLogError(.corrupt, "\(layout.meta): format \(version) \(cipher == nil ? "without" : "with") an encryption line")
        }
        guard cipher == nil || cipher == FormatConstants.cipherName else {
            throw HealthLogError(.unsupportedVersion, "\(layout.directory) is encrypted with '\(cipher!)'; this healthlog knows \(FormatConstants.cipherName): upgrade healthlog")
        }
        return StoreMeta(storeID: id, version: version, isEncrypted: cipher != nil)
    }

    /// The non-empty lines of `bytes`, split at each newline byte (a scan of the bytes: a
    /// `String` split into `Substring`s has its array's type made at run time, about 40,000
    /// instructions of every command's start).
    private static func lines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        for end in bytes.indices where bytes[end] == 0x0A {
            if end > start { lines.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
            start = end + 1
        }
        if start < bytes.count { lines.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return lines
    }
}
