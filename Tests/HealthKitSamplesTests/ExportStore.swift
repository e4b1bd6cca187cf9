import Foundation
import HealthLog
import HealthLogImport
import HealthLogTestSupport

/// A store imported from public Apple Health exports (steps and distance from 2014,
/// heart rate from 2019 and 2024), the samples' programs run against it, and the
/// library's own answers to compare their output with.
struct ExportStore {
    /// The exports imported, in order.
    static let exports = [
        PackageFiles.appleHealthExport("tdda-applehealthdata.xml"),
        PackageFiles.appleHealthExport("alxdrcirilo-apple-health-parser.xml"),
        PackageFiles.path("Samples/apple-health-export.zip"),
    ]

    let dir: TemporaryDirectory
    let store: HealthStore

    /// A fresh store in a temporary directory holding the imported exports.
    init() throws {
        dir = try TemporaryDirectory()
        store = HealthStore(directory: dir.file("store"))
        for export in Self.exports {
            _ = try store.importExport(at: export)
        }
    }

    /// Runs sample program `name` against the store, with its own home directory (where
    /// `UserDefaults` keeps its file) and clock zone `timeZone`.
    func run(_ name: String, _ arguments: [String] = [], timeZone: String = "UTC") throws -> BuiltProgram.Result {
        let home = dir.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let environment = [
            "HEALTHLOG_STORE": store.directory, "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "TZ": timeZone,
        ]
        return try BuiltProgram(name).run(arguments, environment: environment)
    }

    /// The library's anchored answer for `types` after `anchor`.
    func changes(_ types: Set<SampleType>, predicate: QueryPredicate = .all, after anchor: QueryAnchor? = nil) async throws -> QueryResult {
        try await AnchoredObjectQueryDescriptor(types: types, predicate: predicate, anchor: anchor).result(for: store)
    }

    func remove() { dir.remove() }
}

/// A sample as a program printed it: `UUID [TYPE] DATE VALUE UNIT`.
struct PrintedSample: Equatable, CustomStringConvertible {
    var uuid: String
    var type: String?
    var start: Int64
    var value: Double
    var unit: String

    /// Parses the words after a line's marker (`+`, or none).
    init?(_ line: Substring, withType: Bool) {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == (withType ? 5 : 4) else { return nil }
        let rest = withType ? Array(words.dropFirst(2)) : Array(words.dropFirst(1))
        guard let date = ISO8601DateFormatter().date(from: rest[0]), let value = Double(rest[1]) else { return nil }
        uuid = words[0]
        type = withType ? words[1] : nil
        start = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        self.value = value
        unit = rest[2]
    }

    /// The library's sample as a program would print it, its value in `unit`.
    init(_ sample: any Sample, unit: String, withType: Bool) throws {
        guard let quantity = (sample as? QuantitySample)?.quantity else { throw NotAQuantity(sample: sample.description) }
        uuid = sample.uuid.description.uppercased()
        type = withType ? sample.sampleType.identifier : nil
        start = sample.start.microseconds
        value = try HealthUnit(quantity.unit).convert(quantity.value, to: HealthUnit(unit))
        self.unit = unit
    }

    var description: String { "\(uuid) \(type ?? "") \(start) \(value) \(unit)" }
}

/// A sample the programs print that is not a quantity sample.
struct NotAQuantity: Error {
    var sample: String
}

extension String {
    /// The lines of this output from the one that starts with `header` to the next line
    /// that is not indented (the header's own line left out).
    func block(after header: String) -> [Substring] {
        let lines = split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.hasPrefix(" ") })
    }

    /// The first line that starts with `prefix`.
    func line(startingWith prefix: String) -> Substring? {
        split(separator: "\n").first { $0.hasPrefix(prefix) }
    }
}
