/// What made an append: recorded with it in the log, so ``HealthStore/appendHistory()``
/// (`healthlog log`) can say which command, file or export each append came from.
///
/// Set it on ``StoreOptions/origin`` for the appends a handle makes. Texts longer than
/// ``maxLength`` bytes are cut (at a character boundary).
public struct AppendOrigin: Sendable, Hashable {
    /// The command or program that appended (`import`, `append`, `add`, `delete`, `save`).
    public var command: String
    /// The input file's name, when the events came from one.
    public var file: String?
    /// The export's own date, for an Apple Health import (`ExportDate`, ISO 8601).
    public var exportDate: String?

    /// The longest text of a field, in UTF-8 bytes.
    public static let maxLength = 1024

    /// An origin; texts are cut to ``maxLength`` bytes.
    public init(command: String, file: String? = nil, exportDate: String? = nil) {
        self.command = Self.cut(command)
        self.file = file.map(Self.cut)
        self.exportDate = exportDate.map(Self.cut)
    }

    private static func cut(_ text: String) -> String {
        let bytes = Array(text.utf8.prefix(maxLength + 1))
        guard bytes.count > maxLength else { return text }
        var end = maxLength
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
