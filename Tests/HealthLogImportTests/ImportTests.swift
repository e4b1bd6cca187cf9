import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// `HealthStore.importExport(at:)` on the public sample exports:
/// faithful per-type counts, idempotence, exports that contain earlier ones, refusal of
/// malformed XML with nothing written, legacy iOS 8 exports, zips found by content, and
/// `--mirror`.
@Suite("Apple Health import")
struct ImportTests {
    /// Imports `file` into a fresh store and returns the report and the store.
    static func importFresh(_ path: String, _ dir: TemporaryDirectory, options: ImportOptions = ImportOptions()) throws -> (ImportReport, HealthStore) {
        let store = HealthStore(directory: dir.file("store"))
        return (try store.importExport(at: path, options: options), store)
    }

    /// HealthKit's view of the store from the beginning: live samples and deleted objects, parsed.
    static func lines(_ store: HealthStore) throws -> [[String: Any]] {
        var out: [[String: Any]] = []
        _ = try store.replay(ReplayRequest(anchor: .beginning)) { line in
            if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { out.append(object) }
        }
        return out
    }

    @Test("Per-type counts equal healthkit-to-sqlite's, by the documented rules", arguments: ExportFixtures.samples.map(\.file))
    func faithfulCounts(_ file: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, _) = try Self.importFresh(PackageFiles.appleHealthExport(file), dir)
        let key = try #require(ExportFixtures.samples.first(where: { $0.file == file })?.expectedKey)
        let expected = try ExportFixtures.expectedRows(key)
        #expect(!expected.isEmpty)
        var accounted: Set<String> = []
        for (table, rows) in expected {
            switch table {
            case "workouts":
                #expect(report.typeCounts["HKWorkoutTypeIdentifier"] == rows)
                accounted.insert("HKWorkoutTypeIdentifier")
            case "activity_summary":
                #expect(report.typeCounts["HKActivitySummaryTypeIdentifier"] == rows)
                accounted.insert("HKActivitySummaryTypeIdentifier")
            case "workout_points":
                // Route points are in route samples: inline Location points, or the GPX
                // file's trkpt (these fixtures' workouts have one route each).
                #expect((report.elementCounts["Location"] ?? report.routeFileElements["trkpt"]) == rows)
                #expect(report.typeCounts["HKWorkoutRouteTypeIdentifier"] == 1)
                accounted.insert("HKWorkoutRouteTypeIdentifier")
            default:
                let name = String(table.dropFirst())
                let type = ["HKQuantityTypeIdentifier" + name, "HKCategoryTypeIdentifier" + name].first { report.typeCounts[$0] != nil }
                #expect(type.flatMap { report.typeCounts[$0] } == rows, "\(table)")
                if let type { accounted.insert(type) }
            }
        }
        // Beyond healthkit-to-sqlite's tables: Me's characteristics and correlations only.
        let extra = Set(report.typeCounts.keys).subtracting(accounted)
        #expect(extra.allSatisfy { $0.hasPrefix("HKCharacteristicTypeIdentifier") || $0.hasPrefix("HKCorrelationTypeIdentifier") })
        #expect(report.summary.added == report.typeCounts.values.reduce(0, +))
    }

    @Test("Correlation members are samples of their own, and the correlation names them")
    func correlationMembers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, store) = try Self.importFresh(PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml"), dir)
        #expect(report.correlationMembers == 2)
        #expect(report.typeCounts["HKCorrelationTypeIdentifierBloodPressure"] == 1)
        let lines = try Self.lines(store)
        let correlation = try #require(lines.first { $0["type"] as? String == "HKCorrelationTypeIdentifierBloodPressure" })
        let objects = try #require(correlation["objects"] as? [String])
        let uuids = Set(lines.compactMap { $0["uuid"] as? String })
        #expect(objects.count == 2 && objects.allSatisfy(uuids.contains))
    }

    @Test("A correlation member that also appears at top level is one sample, counted once")
    func memberAlsoTopLevel() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = try String(contentsOfFile: PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml"), encoding: .utf8)
        let member = #" <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="ShinzoAdvisor" sourceVersion="126" unit="mmHg" creationDate="2020-08-02 19:12:44 +0900" startDate="2020-08-02 19:12:21 +0900" endDate="2020-08-02 19:12:21 +0900" value="74"/>"#
        let path = dir.file("with-top-level-member.xml")
        try text.replacingOccurrences(of: "</HealthData>", with: member + "\n</HealthData>").write(toFile: path, atomically: true, encoding: .utf8)
        let (report, _) = try Self.importFresh(path, dir)
        #expect(report.typeCounts["HKQuantityTypeIdentifierBloodPressureDiastolic"] == 1)
        #expect(report.correlationMembersAlsoTopLevel == 1)
        #expect(report.summary.alreadyPresent == 1)
    }

    @Test("Importing the same export twice adds nothing the second time", arguments: ["healthkit-to-sqlite.xml", "alxdrcirilo-apple-health-parser.zip"])
    func idempotent(_ file: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (first, store) = try Self.importFresh(PackageFiles.appleHealthExport(file), dir)
        let second = try store.importExport(at: PackageFiles.appleHealthExport(file))
        #expect(first.summary.added > 0)
        #expect(second.summary.added == 0)
        #expect(second.summary.alreadyPresent == first.summary.added)
        #expect(second.summary.anchor == first.summary.anchor)
    }

    @Test("A later export that holds an earlier one adds only the new records")
    func laterExport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let full = try String(contentsOfFile: PackageFiles.appleHealthExport("tdda-applehealthdata.xml"), encoding: .utf8)
        let earlier = dir.file("earlier.xml")
        try ExportFixtures.dropping(lines: "DistanceWalkingRunning", from: full).write(toFile: earlier, atomically: true, encoding: .utf8)
        let (first, store) = try Self.importFresh(earlier, dir)
        let later = try store.importExport(at: PackageFiles.appleHealthExport("tdda-applehealthdata.xml"))
        #expect(later.summary.added == 5)
        #expect(later.summary.alreadyPresent == first.summary.added)
    }

    @Test("The same record re-exported with another device address and time zone keeps its UUID")
    func stableAcrossExports() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let original = try String(contentsOfFile: PackageFiles.appleHealthExport("alxdrcirilo-apple-health-parser.xml"), encoding: .utf8)
        let moved = original.replacingOccurrences(of: "0x3012772a0", with: "0x2834f10c0")
            .replacingOccurrences(of: "2024-01-01 01:01:36 +0200", with: "2023-12-31 23:01:36 +0000")
        #expect(moved != original)
        let path = dir.file("re-exported.xml")
        try moved.write(toFile: path, atomically: true, encoding: .utf8)
        let (first, store) = try Self.importFresh(PackageFiles.appleHealthExport("alxdrcirilo-apple-health-parser.xml"), dir)
        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0)
        #expect(again.summary.alreadyPresent == first.summary.added)
        let device = try #require(Self.lines(store).compactMap { $0["device"] as? String }.first)
        #expect(device.hasPrefix("<<HKDevice>, name:Apple Watch"))
    }

    @Test("Malformed XML is refused with its line and column, and no store is created")
    func malformedNewStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let error = try #require(throws: HealthLogError.self) { try store.importExport(at: PackageFiles.appleHealthExport("legacy-ios8-malformed.xml")) }
        #expect(error.code == .badInput)
        #expect(error.message.contains("line 5, column 198: malformed XML"))
        #expect(error.message.hasSuffix("(an iOS 8 export: it writes metadata as attributes, some with spaces in their names, which is not XML; such a file cannot be imported)"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test("Malformed XML late in the file writes nothing to an existing store")
    func malformedExistingStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, store) = try Self.importFresh(PackageFiles.appleHealthExport("aleksi-applehealth.xml"), dir)
        let before = try Self.lines(store).count
        let head = try store.headAnchor()
        let text = try String(contentsOfFile: PackageFiles.appleHealthExport("tdda-applehealthdata.xml"), encoding: .utf8)
        let path = dir.file("broken.xml")
        try text.replacingOccurrences(of: "</HealthData>", with: "<Record type=\"x\" </HealthData>").write(toFile: path, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.eventsPerAppend = 2
        #expect(throws: HealthLogError.self) { try store.importExport(at: path, options: options) }
        #expect(try Self.lines(store).count == before)
        #expect(try store.headAnchor() == head)
    }

    @Test("A well-formed iOS 8 export imports: source=, compact dates, aggregated heart rate, integer categories")
    func legacyExport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, store) = try Self.importFresh(PackageFiles.appleHealthExport("legacy-ios8.xml"), dir)
        #expect(report.unmappedCount == 0)
        #expect(report.exportDate == "2015-11-07T17:19:24+01:00")
        let lines = try Self.lines(store)
        let heartRate = try #require(lines.first { $0["type"] as? String == "HKQuantityTypeIdentifierHeartRate" })
        #expect(heartRate["value"] as? Double == 1.15)
        #expect(heartRate["unit"] as? String == "count/s")
        #expect(heartRate["source"] as? String == "Mio")
        #expect(heartRate["start"] as? String == "2015-11-02T06:00:00+01:00")
        #expect((heartRate["metadata"] as? [String: Any])?["recordCount"] as? String == "59")
        let sleep = try #require(lines.first { $0["type"] as? String == "HKCategoryTypeIdentifierSleepAnalysis" })
        #expect(sleep["value"] as? String == "HKCategoryValueSleepAnalysisAsleepUnspecified", "the integer 1 is stored as its constant's name")
        #expect(sleep["unit"] == nil)
    }

    @Test("A zip is read by content: a localised XML name, __MACOSX junk and other XML files are passed over")
    func zipByContent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, store) = try Self.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite-localised.zip"), dir)
        #expect(report.document.hasSuffix("apple_health_export/导出.xml"))
        #expect(report.locale == "en_US")
        let workout = try #require(Self.lines(store).first { $0["type"] as? String == "HKWorkoutTypeIdentifier" })
        let route = try #require((workout["metadata"] as? [String: Any])?["HealthLogImport.WorkoutRoute"] as? String)
        #expect(route.contains("/workout-routes/route_2019-06-11_3.00pm.gpx"))
    }

    @Test("Sources keep their exact characters, NBSP included; values and units are kept as exported")
    func faithfulValues() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, store) = try Self.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite.xml"), dir)
        let lines = try Self.lines(store)
        let heartRate = try #require(lines.first { $0["type"] as? String == "HKQuantityTypeIdentifierHeartRate" })
        #expect(heartRate["source"] as? String == "Apple\u{A0}Watch")
        #expect(heartRate["value"] as? Int == 72)
        #expect(heartRate["start"] as? String == "2018-09-10T02:28:55-07:00")
        let summary = try #require(lines.first { $0["type"] as? String == "HKActivitySummaryTypeIdentifier" })
        #expect(summary["start"] as? String == "2016-11-15T00:00:00Z")
        #expect((summary["metadata"] as? [String: Any])?["activeEnergyBurned"] as? Double == 590.252)
    }

    @Test("--mirror deletes the imported samples a later export dropped, as delete events, and nothing else")
    func mirror() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (first, store) = try Self.importFresh(PackageFiles.appleHealthExport("tdda-applehealthdata.xml"), dir)
        let mine = try store.append(ndjson: Array(#"{"type":"HKQuantityTypeIdentifierStepCount","start":"2014-09-13T10:00:00Z","value":5,"unit":"count"}"#.utf8))
        let own = try #require(mine.lastAdded)
        let anchor = try store.headAnchor()
        let full = try String(contentsOfFile: PackageFiles.appleHealthExport("tdda-applehealthdata.xml"), encoding: .utf8)
        let smaller = dir.file("smaller.xml")
        try ExportFixtures.dropping(lines: "DistanceWalkingRunning", from: full).write(toFile: smaller, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.mirror = true
        let mirrored = try store.importExport(at: smaller, options: options)
        #expect(mirrored.summary.deleted == 5)
        #expect(mirrored.summary.added == 0)
        var deletes: [String] = []
        var live = 0
        _ = try store.replay(ReplayRequest(anchor: anchor)) { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            if object?["op"] as? String == "delete" { deletes.append(object?["type"] as? String ?? "") } else { live += 1 }
        }
        #expect(deletes == Array(repeating: "HKQuantityTypeIdentifierDistanceWalkingRunning", count: 5))
        #expect(live == 0)
        let remaining = try Self.lines(store).filter { $0["op"] as? String == "add" }.compactMap { $0["uuid"] as? String }
        #expect(remaining.contains(own.description))
        #expect(remaining.count == first.summary.added - 5 + 1)
        let again = try store.importExport(at: smaller, options: options)
        #expect(again.summary.deleted == 0 && again.summary.added == 0)
        let whole = try store.importExport(at: PackageFiles.appleHealthExport("tdda-applehealthdata.xml"))
        #expect(whole.summary.added == 0)
        #expect(whole.summary.deletedEarlier == 5)
        #expect(whole.summary.alreadyPresent == first.summary.added - 5)
    }

    @Test("A sample imported and then deleted does not come back when the export is imported again")
    func deletedStaysDeleted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (first, store) = try Self.importFresh(PackageFiles.appleHealthExport("aleksi-applehealth.xml"), dir)
        let line = try #require(Self.lines(store).first { $0["type"] as? String == "HKQuantityTypeIdentifierBodyMass" })
        let uuid = try #require(line["uuid"] as? String)
        _ = try store.append(ndjson: Array("{\"op\":\"delete\",\"uuid\":\"\(uuid)\"}".utf8))
        let again = try store.importExport(at: PackageFiles.appleHealthExport("aleksi-applehealth.xml"))
        #expect(again.summary.added == 0)
        #expect(again.summary.alreadyPresent == first.summary.added - 1)
        #expect(again.summary.deletedEarlier == 1)
    }

    @Test("What does not map is listed by line, without naming documents outside the repository; unknown elements too")
    func unmappedListed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("clinical.xml")
        try """
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 08:00:00 +0100"/>
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="x" sourceName="Clinic" sourceURL="https://example.org" fhirVersion="4.0.1" receivedDate="2024-03-01 08:00:00 +0100" resourceFilePath="/clinical-records/x.json"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 07:00:00 +0100" value="70"/>
             <Thing/>
            </HealthData>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let (report, _) = try Self.importFresh(path, dir)
        #expect(report.unmapped.map(\.line) == [4, 5])
        #expect(report.unmapped.map(\.element) == ["Record", "Thing"])
        #expect(report.unmapped[0].reason.contains("field 'end': is before start"))
        #expect(report.unmapped.allSatisfy { !$0.reason.contains("SPEC") })
        #expect(report.summary.added == 1)
        #expect(report.typeCounts["HKClinicalTypeIdentifierLabResultRecord"] == 1)
        #expect(report.clinicalProblems.map(\.file) == ["/clinical-records/x.json"])
    }

    @Test("A modern workout keeps its statistics, events, activities and route in metadata, totals from its statistics, repeated metadata once; HRV keeps its beats")
    func modernWorkout() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("modern.xml")
        try """
            <HealthData locale="en_NL">
             <ExportDate value="2024-06-01 08:10:05 +0200"/>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2024-03-01 03:00:00 +0100" endDate="2024-03-01 03:01:00 +0100" value="41.5">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="58" time="3:00:01.12 AM"/>
               <InstantaneousBeatsPerMinute bpm="61" time="3:00:02.05 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-03-01 18:00:00 +0100" duration="10" durationUnit="min"/>
              <WorkoutActivity uuid="0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" duration="30" durationUnit="min">
               <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" sum="250" unit="kcal"/>
              </WorkoutActivity>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" sum="250" unit="kcal"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" sum="5.1" unit="km"/>
              <WorkoutRoute sourceName="W" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100">
               <FileReference path="/workout-routes/route_2024-03-01_6.00pm.gpx"/>
              </WorkoutRoute>
             </Workout>
            </HealthData>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let (report, store) = try Self.importFresh(path, dir)
        #expect(report.unmappedCount == 0)
        let lines = try Self.lines(store)
        let workout = try #require(lines.first { $0["type"] as? String == "HKWorkoutTypeIdentifier" })
        #expect(workout["duration"] as? Double == 1800)
        let totals = try #require(workout["totals"] as? [String: [String: Any]])
        #expect(totals["energy"]?["value"] as? Double == 250 && totals["energy"]?["unit"] as? String == "kcal")
        #expect(totals["distance"]?["value"] as? Double == 5.1 && totals["distance"]?["unit"] as? String == "km")
        let metadata = try #require(workout["metadata"] as? [String: Any])
        #expect(metadata["HKIndoorWorkout"] as? String == "0")
        for child in ["WorkoutStatistics", "WorkoutEvent", "WorkoutActivity", "WorkoutRoute"] {
            let text = try #require(metadata["HealthLogImport." + child] as? String, "\(child)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [Any], "\(child)")
        }
        #expect((metadata["HealthLogImport.WorkoutActivity"] as? String)?.contains("\"WorkoutStatistics\":[{") == true)
        #expect((metadata["HealthLogImport.WorkoutRoute"] as? String)?.contains("route_2024-03-01_6.00pm.gpx") == true)
        let hrv = try #require(lines.first { $0["type"] as? String == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN" })
        let beats = try #require((hrv["metadata"] as? [String: Any])?["HealthLogImport.HeartRateVariabilityMetadataList"] as? String)
        #expect(beats.contains("\"bpm\":\"61\"") && beats.contains("3:00:02.05 AM"))
    }
}
