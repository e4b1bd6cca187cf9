import CSQLite

/// A compiled SQL statement, reused across executions: bind parameters, step through its
/// rows, read columns as text or integers.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer
    private let sql: String

    /// Compiles `sql` for `database` (`sqlite3_prepare_v2`).
    init(_ sql: String, in database: SQLiteDatabase) throws {
        var compiled: OpaquePointer?
        try database.check(sqlite3_prepare_v2(database.handle, sql, -1, &compiled, nil), "compiling \(sql.prefix(60))")
        guard let compiled else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in the SQL", context: "compiling \(sql.prefix(60))") }
        self.database = database
        handle = compiled
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Runs the statement to completion with `values` bound to its parameters in order,
    /// ignoring any rows; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ values: [SQLiteValue] = []) throws -> Int {
        try start(values)
        while try step() {}
        return Int(sqlite3_changes(database.handle))
    }

    /// Runs the statement with `values` bound to its parameters in order and returns its
    /// rows, each column as text (`NULL` reads as empty text).
    func rows(_ values: [SQLiteValue] = []) throws -> [[String]] {
        try start(values)
        var rows: [[String]] = []
        while try step() {
            rows.append(
                (0..<sqlite3_column_count(handle)).map { column in
                    sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
                })
        }
        return rows
    }

    /// Resets the statement and binds `values` (`sqlite3_reset`, `sqlite3_bind_*`).
    private func start(_ values: [SQLiteValue]) throws {
        // sqlite3_reset's code only repeats the last step's error, which was thrown then.
        _ = sqlite3_reset(handle)
        try database.check(sqlite3_clear_bindings(handle), "clearing the parameters of \(sql.prefix(60))")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status =
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let number): sqlite3_bind_int64(handle, index, number)
                case .real(let number): sqlite3_bind_double(handle, index, number)
                case .text(let text): sqlite3_bind_text(handle, index, text, -1, healthlog_sqlite_transient())
                }
            try database.check(status, "binding parameter \(index) of \(sql.prefix(60))")
        }
    }

    /// Steps once (`sqlite3_step`): `true` with a row to read, `false` when done.
    private func step() throws -> Bool {
        let status = sqlite3_step(handle)
        try database.check(status, "running \(sql.prefix(60))", accepting: [SQLITE_ROW, SQLITE_DONE])
        return status == SQLITE_ROW
    }
}
