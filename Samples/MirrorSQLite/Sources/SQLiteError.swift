/// A failed SQLite call: the extended result code, SQLite's message, and what the program
/// was doing to which file.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_IOERR_FSYNC`, …).
    var code: Int32
    /// SQLite's own message for it.
    var message: String
    /// What failed, naming the database file (`opening mirror.db`).
    var context: String

    /// `context: message (SQLite code N)`.
    var description: String { "\(context): \(message) (SQLite code \(code))" }
}
