// The in-process sync benchmark: one program pages through one type of a store with
// HealthLog's `AnchoredObjectQueryDescriptor` and through the yardstick's SQLite database
// with SQLite's C API, and prints the times and their ratios. SQLite runs twice: the
// SQLite peer's anchored, limited query with each row's text read (what the peer prints),
// and the same rows' columns made into the values the descriptor returns (a sample or a
// deleted object with its UUID, type, dates, value, unit, source, device and metadata).
// Built and run by `tools/sync-bench`.
//
//   healthlog-sync-bench STORE SQLITE_DB [TYPE] [LIMIT] [ROUNDS]
//
// Each round pages from the beginning until a page comes back short, healthlog and then
// SQLite's two passes; each peer's median round is printed, and the ratios are the medians
// of the rounds' own ratios. CPU time is the process's (all threads), wall time the
// monotonic clock's.
import CSQLite
import HealthLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: healthlog-sync-bench STORE SQLITE_DB [TYPE] [LIMIT] [ROUNDS]")
    exit(2)
}
let storePath = arguments[1]
let databasePath = arguments[2]
let type = arguments.count > 3 ? arguments[3] : "HKQuantityTypeIdentifierHeartRate"
let limit = arguments.count > 4 ? Int(arguments[4]) ?? 10_000 : 10_000
let rounds = arguments.count > 5 ? Int(arguments[5]) ?? 5 : 5

/// A pass through every page: pages, items (samples plus deleted objects), bytes of the
/// items' text where there is one, and the CPU and wall seconds it took.
struct Pass {
    var pages = 0
    var items = 0
    var bytes = 0
    var cpu = 0.0
    var wall = 0.0
}

func seconds(_ clock: clockid_t) -> Double {
    var now = timespec()
    clock_gettime(clock, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Times `body` (one pass) on both clocks.
func timed(_ body: () async throws -> Pass) async rethrows -> Pass {
    let cpu = seconds(CLOCK_PROCESS_CPUTIME_ID)
    let wall = seconds(CLOCK_MONOTONIC)
    var pass = try await body()
    pass.cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu
    pass.wall = seconds(CLOCK_MONOTONIC) - wall
    return pass
}

/// Pages through `type` with the library's descriptor, as a sync client does: each page's
/// new anchor is the next page's anchor.
func healthLogPass(_ store: HealthStore) async throws -> Pass {
    var pass = Pass()
    var anchor: QueryAnchor?
    guard let sampleType = SampleType(type) else { throw HealthLogError(.badUsage, "not a type: \(type)") }
    while true {
        let result = try await AnchoredObjectQueryDescriptor(types: [sampleType], anchor: anchor, limit: limit).result(for: store)
        let count = result.addedSamples.count + result.deletedObjects.count
        pass.pages += 1
        pass.items += count
        anchor = result.newAnchor
        if count < limit { return pass }
    }
}

/// The SQLite peer's database, read-only, with its two statements compiled once: the
/// page's rows (live samples as their stored line with op, uuid and seq set; deleted
/// objects built with json_object; the two (type, seq) index ranges merged in seq order)
/// and the next anchor (the seq of the LIMIT-th row, or the highest seq).
final class SQLitePeer {
    private var database: OpaquePointer?
    private var rows: OpaquePointer?
    private var columns: OpaquePointer?
    private var next: OpaquePointer?

    init(_ path: String) throws {
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw HealthLogError(.badUsage, "cannot open \(path): \(String(cString: sqlite3_errmsg(database)))")
        }
        rows = try prepare(
            """
            SELECT j FROM (
              SELECT seq, json_set(body, '$.op', 'add', '$.uuid', uuid, '$.seq', seq) AS j
                FROM samples WHERE type = ?1 AND seq > ?2
              UNION ALL
              SELECT seq, CASE WHEN source IS NULL
                          THEN json_object('op','delete','uuid',uuid,'type',type,'start',start,'end',end,'seq',seq)
                          ELSE json_object('op','delete','uuid',uuid,'type',type,'start',start,'end',end,'source',source,'seq',seq)
                          END
                FROM deleted WHERE type = ?1 AND seq > ?2
              ORDER BY seq LIMIT ?3)
            """)
        columns = try prepare(
            """
            SELECT seq, 0, uuid, type, start, end, value, unit, source, device, metadata
              FROM samples WHERE type = ?1 AND seq > ?2
            UNION ALL
            SELECT seq, 1, uuid, type, start, end, NULL, NULL, source, NULL, NULL
              FROM deleted WHERE type = ?1 AND seq > ?2
            ORDER BY seq LIMIT ?3
            """)
        next = try prepare(
            """
            SELECT coalesce(
              (SELECT seq FROM (SELECT seq FROM samples WHERE type = ?1 AND seq > ?2
                                UNION ALL
                                SELECT seq FROM deleted WHERE type = ?1 AND seq > ?2
                                ORDER BY seq LIMIT 1 OFFSET ?3 - 1)),
              max(coalesce((SELECT max(seq) FROM samples), 0), coalesce((SELECT max(seq) FROM deleted), 0)))
            """)
    }

    deinit {
        sqlite3_finalize(rows)
        sqlite3_finalize(columns)
        sqlite3_finalize(next)
        sqlite3_close(database)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw HealthLogError(.badUsage, "cannot compile: \(String(cString: sqlite3_errmsg(database)))")
        }
        return statement
    }

    private func bind(_ statement: OpaquePointer?, anchor: Int64) {
        sqlite3_reset(statement)
        sqlite3_bind_text(statement, 1, type, -1, healthlog_sqlite_transient())
        sqlite3_bind_int64(statement, 2, anchor)
        sqlite3_bind_int64(statement, 3, Int64(limit))
    }

    /// Pages through `type`: every row's text is read (as a client reads the rows it
    /// applies), or, with `typed`, every row's columns made into a sample or a deleted object.
    func pass(typed: Bool = false) throws -> Pass {
        var pass = Pass()
        var anchor: Int64 = 0
        var maker = RowMaker()
        while true {
            let statement = typed ? columns : rows
            bind(statement, anchor: anchor)
            var count = 0
            var samples: [any Sample] = []
            var deleted: [DeletedRow] = []
            while true {
                let status = sqlite3_step(statement)
                if status == SQLITE_DONE { break }
                guard status == SQLITE_ROW else { throw HealthLogError(.corrupt, String(cString: sqlite3_errmsg(database))) }
                if typed {
                    try maker.take(statement, samples: &samples, deleted: &deleted)
                } else if sqlite3_column_text(statement, 0) != nil {
                    pass.bytes += Int(sqlite3_column_bytes(statement, 0))
                }
                count += 1
            }
            if typed { count = samples.count + deleted.count }
            bind(next, anchor: anchor)
            guard sqlite3_step(next) == SQLITE_ROW else { throw HealthLogError(.corrupt, String(cString: sqlite3_errmsg(database))) }
            anchor = sqlite3_column_int64(next, 0)
            pass.pages += 1
            pass.items += count
            if count < limit { return pass }
        }
    }
}

/// A deleted object made from a row of the `deleted` table: what `DeletedObject` holds
/// (whose initialiser the library keeps to itself).
struct DeletedRow {
    var uuid: SampleUUID
    var sampleType: SampleType
    var start: Timestamp
    var end: Timestamp
    var source: String?
    var device: String?
    var metadata: [String: MetadataValue]
}

/// Makes the values the descriptor returns from the typed query's rows: UUIDs and dates
/// parsed from their text, and the type, unit, source, device and metadata taken from one
/// of the last four rows when its bytes are the same (as the library's decoder remembers
/// them).
struct RowMaker {
    /// A text column's last four distinct values, by their bytes.
    struct Recent<Value> {
        var keys: [[UInt8]] = []
        var values: [Value?] = []
        var next = 0

        /// The value of column `column`, made by `make` unless a recent row had its bytes.
        mutating func value(_ statement: OpaquePointer?, _ column: Int32, _ make: (String) -> Value?) -> Value? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            let bytes = UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
            for k in keys.indices where keys[k].elementsEqual(bytes) { return values[k] }
            let value = make(String(decoding: bytes, as: UTF8.self))
            if keys.count < 4 {
                keys.append(Array(bytes))
                values.append(value)
            } else {
                keys[next] = Array(bytes)
                values[next] = value
                next = (next + 1) % 4
            }
            return value
        }
    }

    private var types = Recent<SampleType>()
    private var units = Recent<String>()
    private var sources = Recent<String>()
    private var devices = Recent<String>()
    private var metadata = Recent<[String: MetadataValue]>()

    /// Adds the row `statement` is on to `samples` or `deleted`.
    mutating func take(_ statement: OpaquePointer?, samples: inout [any Sample], deleted: inout [DeletedRow]) throws {
        func string(_ column: Int32) -> String? {
            sqlite3_column_text(statement, column).map { String(cString: $0) }
        }
        guard let uuid = string(2).flatMap(SampleUUID.init), let type = types.value(statement, 3, SampleType.init),
            let start = string(4).flatMap(Timestamp.init(iso8601:)), let end = string(5).flatMap(Timestamp.init(iso8601:))
        else { throw HealthLogError(.corrupt, "a row does not read") }
        let source = sources.value(statement, 8) { $0 }
        if sqlite3_column_int(statement, 1) == 1 {
            deleted.append(DeletedRow(uuid: uuid, sampleType: type, start: start, end: end, source: source, device: nil, metadata: [:]))
            return
        }
        let fields = SampleFields(
            uuid: uuid, start: start, end: end, source: source, device: devices.value(statement, 9) { $0 },
            metadata: metadata.value(statement, 10, Self.metadata) ?? [:])
        let quantity = Quantity(sqlite3_column_double(statement, 6), units.value(statement, 7) { $0 } ?? "")
        samples.append(QuantitySample(type: type, quantity: quantity, fields: fields))
    }

    /// A flat JSON object of numbers, booleans and strings without escapes, as the
    /// yardstick's metadata column holds it.
    static func metadata(_ json: String) -> [String: MetadataValue]? {
        var out: [String: MetadataValue] = [:]
        let body = json.dropFirst().dropLast()
        guard !body.isEmpty else { return out }
        for member in body.split(separator: ",") {
            let parts = member.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let key = String(parts[0].dropFirst().dropLast())
            let value = parts[1]
            if value.first == "\"" {
                out[key] = .string(String(value.dropFirst().dropLast()))
            } else if value == "true" || value == "false" {
                out[key] = .bool(value == "true")
            } else if let number = Double(value) {
                out[key] = .number(number)
            } else {
                return nil
            }
        }
        return out
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, _ passes: [Pass]) {
    let first = passes[0]
    print(
        "\(name): \(first.pages) pages, \(first.items) items; median of \(passes.count): cpu \(format(median(passes.map(\.cpu)))) s, wall \(format(median(passes.map(\.wall)))) s"
    )
}

func format(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

let store = HealthStore(directory: storePath)
let peer = try SQLitePeer(databasePath)
// One pass of each first, so both read from a warm page cache with their code paged in.
_ = try await healthLogPass(store)
_ = try peer.pass()
_ = try peer.pass(typed: true)
var healthLog: [Pass] = []
var sqlite: [Pass] = []
var sqliteTyped: [Pass] = []
for _ in 0..<rounds {
    healthLog.append(try await timed { try await healthLogPass(store) })
    sqlite.append(try await timed { try peer.pass() })
    sqliteTyped.append(try await timed { try peer.pass(typed: true) })
}
report("healthlog (AnchoredObjectQueryDescriptor)", healthLog)
report("sqlite (C API, the yardstick's query, rows' text)", sqlite)
report("sqlite (C API, rows' columns as samples)", sqliteTyped)
if healthLog[0].items != sqlite[0].items || healthLog[0].items != sqliteTyped[0].items { print("note: the item counts differ") }
// The passes of a round ran one after the other, so each round's ratio compares the two in
// the same seconds of the machine; the median of those ratios is the figure.
for (name, passes) in [("rows' text", sqlite), ("rows as samples", sqliteTyped)] {
    let cpuRatio = median(zip(passes, healthLog).map { $0.cpu / $1.cpu })
    let wallRatio = median(zip(passes, healthLog).map { $0.wall / $1.wall })
    print("sqlite (\(name)) ÷ healthlog, the median of the rounds' ratios: cpu \(format(cpuRatio))×, wall \(format(wallRatio))×")
}
