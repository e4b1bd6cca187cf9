@testable import HealthLog

extension UUIDRun {
    /// Every entry, in UUID order, read a page at a time; throws when a block fails its checksum.
    func allEntries() throws -> [Entry] {
        var cursor = try BlockCursor(self)
        defer { cursor.close() }
        var out: [Entry] = []
        while let entry = cursor.current {
            out.append(entry)
            try cursor.advance()
        }
        return out
    }
}
