import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The document parsed on one thread and mapped on two, whichever finishes a batch first:
/// the results taken in order must be what one mapper reading front to back gives.
@Suite("Import: the document parsed on one thread, mapped on two")
struct DocumentPassTests {
    /// Every event line and unmapped item of `path`'s document, in the order kept, with
    /// batches of `size` elements.
    static func mapped(_ path: String, batch size: Int) throws -> (lines: [[UInt8]], unmapped: [String], exportDate: String?) {
        var lines: [[UInt8]] = []
        var unmapped: [String] = []
        let read = try DocumentPass.read(path, elementsPerBatch: size) { mapped in
            lines += mapped.events.map(\.line)
            unmapped += mapped.unmapped.map { "\($0)" }
        } progress: { _, _ in }
        return (lines, unmapped, read.mapper.exportDate?.iso)
    }

    /// A document whose `ExportDate` comes after some records, and again later with another
    /// date, with an element that does not map between them.
    static let datedLate = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
        \((0..<7).map { "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" value=\"\($0)\" startDate=\"2024-03-01 08:0\($0):00 +0100\" endDate=\"2024-03-01 08:0\($0):30 +0100\"/>" }.joined(separator: "\n"))
        <ExportDate value="2024-03-02 09:00:00 +0100"/>
        <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
        <Mystery/>
        \((0..<5).map { "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" value=\"7\($0)\" startDate=\"2024-03-01 09:0\($0):00 +0100\" endDate=\"2024-03-01 09:0\($0):00 +0100\"/>" }.joined(separator: "\n"))
        <ExportDate value="2024-03-03 10:00:00 +0100"/>
        <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" value="61.5" startDate="2024-03-01 07:00:00 +0100" endDate="2024-03-01 07:00:00 +0100"/>
        </HealthData>
        """

    @Test("Any batch size maps every fixture and a late, repeated ExportDate to the same events, in the same order", arguments: [1, 2, 3, 5])
    func batchSizesAgree(size: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let late = dir.file("late.xml")
        try Self.datedLate.write(toFile: late, atomically: true, encoding: .utf8)
        let fixtures = ["freddiefujiwara-ahcd.xml", "tdda-applehealthdata.xml", "alxdrcirilo-apple-health-parser.xml", "healthkit-to-sqlite.xml"]
        for path in fixtures.map(PackageFiles.appleHealthExport) + [late] {
            let whole = try Self.mapped(path, batch: 100_000)
            let batched = try Self.mapped(path, batch: size)
            #expect(batched.lines == whole.lines, "\(path)")
            #expect(batched.unmapped == whole.unmapped, "\(path)")
            #expect(batched.exportDate == whole.exportDate, "\(path)")
        }
        let late7 = try Self.mapped(late, batch: size)
        let markers = late7.lines.map { String(decoding: $0, as: UTF8.self) }.map { $0.contains("\"HealthLogImport\":true") ? "true" : $0.contains("2024-03-03") ? "3rd" : "2nd" }
        #expect(markers == Array(repeating: "true", count: 7) + Array(repeating: "2nd", count: 6) + ["3rd"])
        #expect(late7.unmapped.count == 1)
    }

    @Test("A batch's events mark the last of each element's: a correlation's members never end one", arguments: [1, 2, 100])
    func elementEnds(size: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("ends.xml")
        let member = { (type: String, unit: String, value: String) in
            "<Record type=\"\(type)\" sourceName=\"Cuff\" unit=\"\(unit)\" value=\"\(value)\" startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"2024-03-01 08:00:00 +0100\"/>"
        }
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
            <ExportDate value="2024-03-02 09:00:00 +0100"/>
            \(member("HKQuantityTypeIdentifierStepCount", "count", "12"))
            <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100">
            \(member("HKQuantityTypeIdentifierBloodPressureSystolic", "mmHg", "120"))
            \(member("HKQuantityTypeIdentifierBloodPressureDiastolic", "mmHg", "80"))
            </Correlation>
            <Mystery/>
            \(member("HKQuantityTypeIdentifierStepCount", "count", "13"))
            </HealthData>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        var ends: [Bool] = []
        var members: [Bool] = []
        _ = try DocumentPass.read(path, elementsPerBatch: size) { mapped in
            ends += mapped.events.map(\.endsElement)
            members += mapped.events.map(\.isCorrelationMember)
        } progress: { _, _ in }
        #expect(members == [false, true, true, false, false])
        #expect(ends == [true, false, false, true, true])
    }

    @Test("Malformed XML after many batches is thrown, and the threads stop")
    func malformedLate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("broken.xml")
        try Self.datedLate.replacingOccurrences(of: "</HealthData>", with: "<Record type=\"x\" </HealthData>").write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: HealthLogError.self) { try Self.mapped(path, batch: 1) }
        #expect(error.code == .badInput)
        #expect(error.message.contains("malformed XML"))
    }

    @Test("An error from the caller mid-document stops both threads and comes back as it was thrown")
    func callerStops() throws {
        struct Stop: Error {}
        var kept = 0
        #expect(throws: Stop.self) {
            _ = try DocumentPass.read(PackageFiles.appleHealthExport("healthkit-to-sqlite.xml"), elementsPerBatch: 1) { _ in
                kept += 1
                if kept == 3 { throw Stop() }
            } progress: { _, _ in }
        }
        #expect(kept == 3)
    }

    /// An export of `count` step records, with `tail` before `</HealthData>`.
    static func steps(_ count: Int, tail: String = "") -> String {
        let records = (0..<count).map {
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" value=\"\($0)\" startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"2024-03-01 08:01:00 +0100\"/>"
        }
        return "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-03-02 09:00:00 +0100\"/>\n" + records.joined(separator: "\n") + tail + "\n</HealthData>\n"
    }

    @Test("Malformed XML after thousands of elements writes nothing, to a new store or an existing one")
    func malformedAfterManyBatches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let broken = dir.file("broken.xml")
        try Self.steps(3_000, tail: "<Record type=\"x\" ").write(toFile: broken, atomically: true, encoding: .utf8)
        let fresh = HealthStore(directory: dir.file("fresh"))
        #expect(throws: HealthLogError.self) { try fresh.importExport(at: broken) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("fresh")))
        let good = dir.file("good.xml")
        try Self.steps(600).write(toFile: good, atomically: true, encoding: .utf8)
        let store = HealthStore(directory: dir.file("store"))
        var options = ImportOptions()
        options.eventsPerAppend = 100
        let first = try store.importExport(at: good, options: options)
        #expect(first.summary.added == 600)
        let before = try FileManager.default.subpathsOfDirectory(atPath: dir.file("store")).sorted()
        let head = try store.headAnchor()
        #expect(throws: HealthLogError.self) { try store.importExport(at: broken, options: options) }
        #expect(try store.headAnchor() == head)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: dir.file("store")).sorted() == before, "no file is added to the store, not even the spill")
        let again = try store.importExport(at: good, options: options)
        #expect(again.summary.added == 0)
        #expect(again.summary.alreadyPresent == 600)
    }
}
