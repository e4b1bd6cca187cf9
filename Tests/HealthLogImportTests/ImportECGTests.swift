import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Electrocardiograms: each `electrocardiograms/*.csv` becomes one
/// electrocardiogram sample with its header's figures and every voltage, the locale's
/// decimal comma read right; one that does not read is listed and the rest imports.
@Suite("Apple Health import: electrocardiograms")
struct ImportECGTests {
    /// An ECG CSV as the Health app writes it; `comma` writes the voltages with a decimal
    /// comma, as a Portuguese phone does.
    static func csv(voltages: [String], date: String = "2020-12-08 10:25:23 -0800", classification: String = "Sinus Rhythm") -> String {
        """
        Name,Ana Silva
        Date of Birth,"1 Jan 1980"
        Recorded Date,\(date)
        Classification,\(classification)
        Symptoms,"Rapid, pounding, or fluttering heartbeat"
        Software Version,1.90
        Device,"Watch6,7"
        Sample Rate,512 hertz
        Lead,Lead I
        Unit,µV


        """ + voltages.joined(separator: "\n") + "\n"
    }

    /// The minimal export document the zip holds beside its ECGs.
    static let xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"pt_PT\">\n <ExportDate value=\"2020-12-09 08:00:00 -0800\"/>\n</HealthData>\n"

    /// The electrocardiograms of `store`, decoded by the library.
    static func ecgs(_ store: HealthStore) throws -> [ElectrocardiogramSample] {
        try store.result(ReplayRequest(anchor: .beginning)).addedSamples.compactMap { $0 as? ElectrocardiogramSample }
    }

    @Test("Both decimal styles read right; the header's figures are kept; re-import adds nothing")
    func decimalStyles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dot = Self.csv(voltages: ["-265.868", "12.5", "0"])
        let comma = Self.csv(voltages: ["-265,868", "12,5", "0", "1.234,5"], date: "2020-12-09 09:00:00 +0000", classification: "Atrial Fibrillation")
        let path = dir.file("export.zip")
        try ByteSurgery.write(StoredZip.make([
            ("apple_health_export/export.xml", Array(Self.xml.utf8)),
            ("apple_health_export/electrocardiograms/ecg_2020-12-08.csv", Array(dot.utf8)),
            ("apple_health_export/electrocardiograms/ecg_2020-12-09.csv", Array(comma.utf8)),
        ]), to: path)
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.typeCounts["HKDataTypeIdentifierElectrocardiogram"] == 2)
        #expect(report.electrocardiogramFilesRead == 2 && report.electrocardiogramVoltages == 7 && report.electrocardiogramProblems.isEmpty)
        let ecgs = try Self.ecgs(store).sorted { $0.fields.start < $1.fields.start }
        #expect(ecgs.map(\.voltages) == [[-265.868, 12.5, 0], [-265.868, 12.5, 0, 1234.5]])
        let first = try #require(ecgs.first)
        #expect(first.classification == "Sinus Rhythm" && ecgs[1].classification == "Atrial Fibrillation")
        #expect(first.voltageUnit == "µV")
        #expect(first.samplingFrequency == 512)
        #expect(first.fields.device == "Watch6,7" && first.fields.sourceVersion == "1.90")
        #expect(first.fields.start == Timestamp(iso8601: "2020-12-08T10:25:23-08:00"))
        #expect(first.fields.end.microseconds == first.fields.start.microseconds + 6000)
        #expect(first.fields.metadata[ElectrocardiogramSample.Key.symptoms] == .string("Rapid, pounding, or fluttering heartbeat"))
        #expect(first.fields.metadata[ElectrocardiogramSample.Key.lead] == .string("Lead I"))
        #expect(first.fields.metadata["HealthLogImport.Date of Birth"] == .string("1 Jan 1980"))
        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == report.summary.added)
    }

    @Test("An ECG that does not read is listed by name, and the rest imports")
    func unreadableListed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("export.zip")
        try ByteSurgery.write(StoredZip.make([
            ("apple_health_export/export.xml", Array(Self.xml.utf8)),
            ("apple_health_export/electrocardiograms/ecg_good.csv", Array(Self.csv(voltages: ["1.5"]).utf8)),
            ("apple_health_export/electrocardiograms/ecg_bad.csv", Array(Self.csv(voltages: ["1.5", "oops"]).utf8)),
            ("apple_health_export/electrocardiograms/ecg_nodate.csv", Array("Name,X\n\n1.5\n".utf8)),
        ]), to: path)
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.electrocardiogramFilesRead == 1)
        #expect(report.electrocardiogramProblems.map(\.file) == ["apple_health_export/electrocardiograms/ecg_bad.csv", "apple_health_export/electrocardiograms/ecg_nodate.csv"])
        #expect(report.electrocardiogramProblems[0].reason.hasSuffix("ecg_bad.csv: line 13: 'oops' is not a voltage"))
        #expect(report.electrocardiogramProblems[1].reason.contains("no recorded date"))
        #expect(try Self.ecgs(store).count == 1)
    }

    @Test("An unzipped export reads the electrocardiograms folder beside export.xml")
    func besideTheXML() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("apple_health_export/electrocardiograms"), withIntermediateDirectories: true)
        try Self.xml.write(toFile: dir.file("apple_health_export/export.xml"), atomically: true, encoding: .utf8)
        try Self.csv(voltages: ["-1,25", "2,5"]).write(toFile: dir.file("apple_health_export/electrocardiograms/ecg_2020-12-08.csv"), atomically: true, encoding: .utf8)
        let (report, store) = try ImportTests.importFresh(dir.file("apple_health_export/export.xml"), dir)
        #expect(report.electrocardiogramFilesRead == 1)
        #expect(try Self.ecgs(store).first?.voltages == [-1.25, 2.5])
    }
}
