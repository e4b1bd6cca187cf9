#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The mirror: one SQLite file holding the live samples of a store (table `samples`) and
/// the anchor they are current to (table `sync_state`).
///
/// The invariant it keeps: the anchor never names a position past data the `samples`
/// table lacks. ``apply(_:after:)`` writes a batch's rows *and* its anchor in one
/// transaction, so a crash at any instant leaves both or neither, and the next run
/// resumes from an anchor whose data is there. The file is created with mode 0600, as
/// health data should be; SQLite gives its `-wal` and `-shm` files the same mode.
final class MirrorDatabase {
    /// The tables. `value` has no declared type: a quantity's number, a category's integer
    /// or name, a workout's duration (see ``SampleRow``).
    static let schema = """
        CREATE TABLE IF NOT EXISTS samples (
            uuid TEXT PRIMARY KEY NOT NULL,
            type TEXT NOT NULL,
            start TEXT NOT NULL,
            "end" TEXT NOT NULL,
            value,
            unit TEXT,
            source TEXT,
            device TEXT,
            metadata TEXT,
            event TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            anchor TEXT NOT NULL,
            types TEXT NOT NULL
        );
        """

    private let database: SQLiteDatabase
    private let upsert: SQLiteStatement
    private let remove: SQLiteStatement
    private let moveAnchor: SQLiteStatement
    private let readState: SQLiteStatement
    private let countSamples: SQLiteStatement
    private let crashHook: CrashHook
    private var transactions = 0

    /// Opens the mirror at `path`, creating it (mode 0600) for the query of `types` (full
    /// identifiers; empty for all types) if it does not exist.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a mirror;
    ///   `HealthLogError` with code `badUsage` when the mirror was created for other
    ///   types: an anchor belongs to one query, and the samples of a type added to the
    ///   query but recorded before the anchor would never be fetched.
    init(path: String, types: [String], crashHook: CrashHook) throws {
        try MirrorDatabase.createPrivately(path)
        database = try SQLiteDatabase(path: path)
        try database.setBusyTimeout(milliseconds: 10_000)
        // WAL lets readers (an app, the sqlite3 shell) read while the mirror writes.
        // synchronous=FULL makes COMMIT return only once the transaction is on disk, so
        // the mirror has the data for good when it says so. (With NORMAL a power cut may
        // take back the last commits — data and anchor together, so the mirror would
        // still be consistent, only behind.)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        try database.execute(MirrorDatabase.schema)
        upsert = try database.prepare(
            """
            INSERT OR REPLACE INTO samples (uuid, type, start, "end", value, unit, source, device, event, metadata)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, json_extract(?9, '$.metadata'))
            """)
        remove = try database.prepare("DELETE FROM samples WHERE uuid = ?1")
        moveAnchor = try database.prepare("UPDATE sync_state SET anchor = ?1 WHERE id = 1 AND anchor = ?2")
        readState = try database.prepare("SELECT anchor, types FROM sync_state WHERE id = 1")
        countSamples = try database.prepare("SELECT count(*) FROM samples")
        self.crashHook = crashHook
        let query = types.sorted().joined(separator: " ")
        try database.transaction {
            try database.prepare("INSERT OR IGNORE INTO sync_state (id, anchor, types) VALUES (1, '0', ?1)").run([.text(query)])
        }
        let recorded = try readState.rows().first?[1] ?? ""
        guard recorded == query else {
            let what = recorded.isEmpty ? "every type" : "--type \(recorded.split(separator: " ").joined(separator: " --type "))"
            throw HealthLogError(.badUsage, "\(path) mirrors \(what): run with the same types, or mirror these into a new database")
        }
    }

    /// The anchor the mirror's samples are current to: where the next query starts.
    ///
    /// - Throws: `HealthLogError` with code `anchorRefused` for a token that is not an
    ///   anchor.
    func anchor() throws -> QueryAnchor {
        try QueryAnchor(token: try readState.rows().first?[0] ?? "0")
    }

    /// How many samples the mirror holds.
    func sampleCount() throws -> Int {
        Int(try countSamples.rows().first?[0] ?? "0") ?? 0
    }

    /// Applies one result of a query run after `anchor`, in one transaction: removes the
    /// rows of its deleted objects, writes its samples, and moves the stored anchor from
    /// `anchor` to the result's new anchor. Either all of it is committed, durably, or
    /// none of it. Applying the same result again changes nothing, which is what makes a
    /// re-run after a crash safe.
    ///
    /// - Throws: ``SQLiteError``, with nothing applied; `HealthLogError` with code `io`
    ///   when the stored anchor is no longer `anchor` (another process is syncing this
    ///   mirror), also with nothing applied.
    func apply(_ result: QueryResult, after anchor: QueryAnchor) throws {
        transactions += 1
        try database.transaction {
            // Deletes must be mirrored: a sample deleted in the store (by the user, or
            // replaced through its sync identifier) would otherwise live on here. In
            // HealthKit's view no UUID is both added and deleted in one result, so the
            // order of these two loops does not matter.
            for deleted in result.deletedObjects {
                try remove.run([.text(deleted.uuid.description)])
            }
            for sample in result.addedSamples {
                try upsert.run(SampleRow(sample).values)
            }
            // The anchor goes in the same transaction as the data it covers. Committed
            // first, on its own, a crash before the data was stored would skip that data
            // for ever: HealthKit apps' classic way of losing samples.
            guard try moveAnchor.run([.text(result.newAnchor.token), .text(anchor.token)]) == 1 else {
                throw HealthLogError(.io, "\(database.path) has moved past anchor \(anchor.token) meanwhile: is another healthlog-mirror syncing it?")
            }
            crashHook.reached(.beforeCommit, inTransaction: transactions)
        }
        crashHook.reached(.afterCommit, inTransaction: transactions)
    }

    /// Creates an empty file at `path` with mode 0600 unless something is there already,
    /// so that SQLite (which would create it 0644) opens a private file.
    private static func createPrivately(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw HealthLogError(.io, "cannot create \(path): \(String(cString: strerror(code)))", errno: code)
        }
        close(descriptor)
    }
}
