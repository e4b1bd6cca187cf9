import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Files that are not a whole Apple Health export: each gets its own
/// message naming the file and the problem, libxml2's words at most as detail, and the
/// store is not created.
@Suite("Apple Health import: inputs that are not an export")
struct ImportInputErrorTests {
    /// Imports `bytes`, written as `name`, into a fresh store; returns the error and
    /// whether the store directory exists afterwards.
    static func refusal(_ bytes: [UInt8], name: String) throws -> (error: HealthLogError, storeExists: Bool) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file(name)
        try ByteSurgery.write(bytes, to: path)
        let store = HealthStore(directory: dir.file("store"))
        let error = try #require(throws: HealthLogError.self) { try store.importExport(at: path) }
        return (error, FileManager.default.fileExists(atPath: dir.file("store")))
    }

    /// The bytes of fixture `name`.
    static func fixture(_ name: String) throws -> [UInt8] {
        try ByteSurgery.read(PackageFiles.appleHealthExport(name))
    }

    @Test("An empty file is named as empty")
    func empty() throws {
        let (error, exists) = try Self.refusal([], name: "export.xml")
        #expect(error.code == .badInput)
        #expect(error.message.hasSuffix("export.xml: the file is empty: not an Apple Health export"))
        #expect(!exists)
    }

    @Test("Plain text and binary data are neither XML nor a zip")
    func notXML() throws {
        let text = try Self.refusal(Array("Steps: 10,000 today\n".utf8), name: "notes.txt")
        #expect(text.error.message.hasSuffix("notes.txt: the file is plain text, neither XML nor a zip: not an Apple Health export"))
        let binary = try Self.refusal([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00], name: "a.out")
        #expect(binary.error.message.hasSuffix("a.out: the file is binary data, neither XML nor a zip: not an Apple Health export"))
        #expect(!text.storeExists && !binary.storeExists)
        #expect(!text.error.message.contains("Document is empty"))
    }

    @Test("XML with a declaration only holds no element")
    func noElement() throws {
        let (error, _) = try Self.refusal(Array("<?xml version=\"1.0\"?>\n<!-- nothing -->\n".utf8), name: "bare.xml")
        #expect(error.message.hasSuffix("bare.xml: the XML holds no element: not an Apple Health export"))
    }

    @Test("An export cut short mid-record, or before </HealthData>, says where it ends", arguments: [2800, -1])
    func truncated(_ cut: Int) throws {
        var bytes = try Self.fixture("healthkit-to-sqlite.xml")
        if cut > 0 {
            bytes.removeLast(bytes.count - cut)
        } else {
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "</HealthData>", with: "")
            bytes = Array(text.utf8)
        }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let last = lines.count - (bytes.last == 0x0A ? 1 : 0)
        let (error, exists) = try Self.refusal(bytes, name: "cut.xml")
        #expect(error.code == .badInput)
        #expect(error.message.contains("cut.xml: the export ends before </HealthData>, at line \(last): the file is cut short"))
        #expect(!error.message.contains("malformed XML"))
        #expect(!exists)
    }

    @Test("A run of Record elements cut from an export, or a Workout, is not a whole export; another root is not an export")
    func fragments() throws {
        let text = String(decoding: try Self.fixture("tdda-applehealthdata.xml"), as: UTF8.self)
        let records = text.split(separator: "\n").filter { $0.contains("<Record ") }.prefix(3).joined(separator: "\n") + "\n"
        let run = try Self.refusal(Array(records.utf8), name: "records.xml")
        #expect(run.error.message.hasSuffix("records.xml: line 1: Record elements without a HealthData document: not a whole export"))
        let workout = "<?xml version=\"1.0\"?>\n<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" sourceName=\"W\" startDate=\"2024-03-01 18:00:00 +0100\" endDate=\"2024-03-01 18:30:00 +0100\">\n</Workout>\n"
        let one = try Self.refusal(Array(workout.utf8), name: "workout.xml")
        #expect(one.error.message.hasSuffix("workout.xml: line 2: Workout elements without a HealthData document: not a whole export"))
        let gpx = try Self.refusal(Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk/></gpx>\n".utf8), name: "route.gpx")
        #expect(gpx.error.message.hasSuffix("route.gpx: line 2: the root element is gpx, not HealthData: not an Apple Health export"))
        #expect(!run.storeExists && !one.storeExists && !gpx.storeExists)
    }

    @Test("Malformed XML inside a whole export keeps its line and column, with libxml2's reason as detail")
    func malformedStillNamed() throws {
        let text = String(decoding: try Self.fixture("tdda-applehealthdata.xml"), as: UTF8.self)
        let broken = text.replacingOccurrences(of: "<Workout ", with: "<Workout <")
        let (error, _) = try Self.refusal(Array(broken.utf8), name: "broken.xml")
        #expect(error.message.contains("broken.xml: line "))
        #expect(error.message.contains(": malformed XML: "))
    }

    @Test("A zip without an export document, and a damaged zip, name the zip")
    func zips() throws {
        let zip = try Self.fixture("alxdrcirilo-apple-health-parser.zip")
        let damaged = try Self.refusal(Array(zip.prefix(100)), name: "export.zip")
        #expect(damaged.error.code == .badInput)
        #expect(damaged.error.message.contains("export.zip: a damaged zip"))
        #expect(!damaged.storeExists)
        let empty = try Self.refusal([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18), name: "empty.zip")
        #expect(empty.error.message.hasSuffix("empty.zip: the zip holds no Apple Health export document (no file starts with a HealthData element)"))
    }
}
