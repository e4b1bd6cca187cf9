import CSQLite

/// An open SQLite database file. With ``SQLiteStatement`` it is the only code that calls
/// the C library; every return code is checked and turned into an ``SQLiteError``.
///
/// One connection, used from one task at a time.
final class SQLiteDatabase {
    /// The database file.
    let path: String
    /// The `sqlite3 *` handle.
    let handle: OpaquePointer

    /// Opens the database at `path`, creating an empty one if there is none
    /// (`sqlite3_open_v2`).
    init(path: String) throws {
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: status, message: message, context: "opening \(path)")
        }
        self.path = path
        handle = opened
        try check(sqlite3_extended_result_codes(handle, 1), "asking for extended result codes")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that take no parameters, discarding any rows
    /// (`sqlite3_exec`).
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), "running \(sql.prefix(60))")
    }

    /// Compiles `sql` (`sqlite3_prepare_v2`).
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(sql, in: self)
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with
    /// `SQLITE_BUSY` (`sqlite3_busy_timeout`).
    func setBusyTimeout(milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(handle, milliseconds), "setting the busy timeout")
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` … `COMMIT`): when `body`
    /// or the commit throws, the transaction is rolled back and nothing it wrote remains.
    /// When this returns, the transaction is as durable as the `synchronous` pragma makes it.
    @discardableResult
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // After a failed COMMIT SQLite may already have rolled back; a second rollback
            // then fails harmlessly, and the first error is the one worth reporting.
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Throws an ``SQLiteError`` for `what` unless `status` is one of `accepted`.
    func check(_ status: Int32, _ what: @autoclosure () -> String, accepting accepted: Set<Int32> = [SQLITE_OK]) throws {
        guard !accepted.contains(status) else { return }
        throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), context: "\(what()) in \(path)")
    }
}
