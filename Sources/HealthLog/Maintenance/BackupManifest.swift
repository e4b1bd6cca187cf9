/// The `manifest` of a backup: every file of the backup with its size and SHA-256, the
/// store's identity, its timeline and head, and a SHA-256 of the manifest itself, so a
/// restore can prove the copy whole before it touches anything.
///
/// ```
/// healthlog-backup 1
/// store F460785D-1F8C-484E-BFDC-9753EF765E33
/// timeline F460785D-1F8C-484E-BFDC-9753EF765E33
/// head 250
/// created 1709280000000
/// file meta 61 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// file segments/00000000000000000001.0000.log.lz4 709 …
/// sha256 <digest of every byte above this line>
/// ```
///
/// A path is one of `meta`, `checkpoint`, `timelines`, `compactions`, `segments/<segment name>`,
/// `segments/<segment name>.idx` and an encrypted store's key slots, `keys/<id>.slot`; anything else (`../x`, an absolute path, another
/// directory) makes the manifest invalid.
struct BackupManifest: Equatable {
    /// One file of the backup.
    struct Entry: Equatable {
        /// Its path relative to the backup directory.
        var path: String
        /// Its size in bytes.
        var size: Int
        /// Its SHA-256, 64 lowercase hex digits.
        var sha256: String
    }

    /// The store backed up.
    var storeID: StoreID
    /// The timeline the backup belongs to (the store's id for a store never restored).
    var timelineID: StoreID
    /// The backup's head sequence number.
    var headSeq: UInt64
    /// When the backup was taken, milliseconds since 1970.
    var createdMillis: Int64
    /// The files, in the order written.
    var entries: [Entry]

    /// The manifest's first line.
    static let header = "healthlog-backup 1"

    /// The file's text.
    func text() throws -> String {
        var body = "\(Self.header)\nstore \(storeID.text)\ntimeline \(timelineID.text)\nhead \(headSeq)\ncreated \(createdMillis)\n"
        for entry in entries { body += "file \(entry.path) \(entry.size) \(entry.sha256)\n" }
        return body + "sha256 \(try SHA256Digest.hex(of: Array(body.utf8)))\n"
    }

    /// The directory of the key slots in a backup, as its paths begin.
    static let keySlotsDirectory = "keys/"

    /// Whether `name` is a key slot's file name: four digits and `.slot` (`0001.slot`).
    static func isKeySlotName(_ name: String) -> Bool {
        name.utf8.count == 9 && name.hasSuffix(".slot") && name.utf8.prefix(4).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `path` names a file a backup may hold.
    static func isBackupPath(_ path: String) -> Bool {
        if ["meta", "checkpoint", "timelines", "compactions"].contains(path) { return true }
        if path.hasPrefix(keySlotsDirectory) { return isKeySlotName(String(path.dropFirst(keySlotsDirectory.count))) }
        guard path.hasPrefix("segments/") else { return false }
        let name = String(path.dropFirst("segments/".count))
        if SegmentName(fileName: name) != nil { return true }
        return name.hasSuffix(".idx") && SegmentName(fileName: String(name.dropLast(4)) + ".log.lz4") != nil
    }

    /// Parses and checks a manifest's text; the error says what is wrong (``HealthLogError/Code/corrupt``).
    static func parse(_ text: String, at path: String) throws -> BackupManifest {
        func refuse(_ why: String) -> HealthLogError { HealthLogError(.corrupt, "\(path): \(why); the backup cannot be trusted") }
        guard text.hasSuffix("\n"), let last = text.dropLast().lastIndex(of: "\n") else { throw refuse("not a healthlog backup manifest") }
        let body = String(text[...last])
        let checksum = text[text.index(after: last)...].dropLast()
        guard checksum == "sha256 \(try SHA256Digest.hex(of: Array(body.utf8)))" else { throw refuse("its checksum does not match its contents") }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard lines.count >= 5, lines[0] == header, let store = value(lines[1], "store").flatMap(StoreID.init(text:)),
            let timeline = value(lines[2], "timeline").flatMap(StoreID.init(text:)), let head = value(lines[3], "head").flatMap(UInt64.init),
            let created = value(lines[4], "created").flatMap(Int64.init)
        else { throw refuse("not a healthlog backup manifest") }
        var entries: [Entry] = []
        for line in lines.dropFirst(5) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[0] == "file", let size = Int(fields[2]), size >= 0, fields[3].utf8.count == 64 else {
                throw refuse("line '\(line.prefix(80))' is not a file entry")
            }
            guard isBackupPath(fields[1]) else { throw refuse("names '\(fields[1].prefix(80))', which is not a file of a backup (it would lie outside it)") }
            guard !entries.contains(where: { $0.path == fields[1] }) else { throw refuse("names \(fields[1]) twice") }
            entries.append(Entry(path: fields[1], size: size, sha256: fields[3]))
        }
        guard entries.contains(where: { $0.path == "meta" }) else { throw refuse("lists no meta file") }
        return BackupManifest(storeID: store, timelineID: timeline, headSeq: head, createdMillis: created, entries: entries)
    }

    /// The text after `key ` on `line`, or `nil` when the line is not that key's.
    private static func value(_ line: String, _ key: String) -> String? {
        line.hasPrefix(key + " ") ? String(line.dropFirst(key.count + 1)) : nil
    }
}
