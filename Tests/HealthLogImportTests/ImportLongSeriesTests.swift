import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Long series: a route or electrocardiogram too long for one stored line imports whole, in
/// linked parts that every reader joins back; a series file that does not read is named and
/// the rest imports.
@Suite("Apple Health import: long routes and electrocardiograms")
struct ImportLongSeriesTests {
    /// The GPX `trkpt` of point `k`: one a second from 2024-03-01T00:00:00Z, on a line of
    /// its own.
    static func trkpt(_ k: Int) -> String {
        let day = 1 + k / 86_400
        let hour = k / 3600 % 24
        let minute = k / 60 % 60
        let second = k % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "2024-03-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
        return "<trkpt lon=\"\(Self.longitude(k))\" lat=\"\(Self.latitude(k))\"><ele>\(k % 997)</ele><time>\(time)</time>"
            + "<extensions><speed>2.5</speed><course>\(k % 360)</course></extensions></trkpt>\n"
    }

    /// Point `k`'s latitude and longitude, different for every point.
    static func latitude(_ k: Int) -> Double { 45 + Double(k) * 1e-6 }
    static func longitude(_ k: Int) -> Double { 7 - Double(k) * 1e-6 }

    /// Writes a GPX route of `points` points to `path` a piece at a time; with `cutAfter`,
    /// the file ends after that many points, without closing tags.
    static func writeGPX(_ path: String, points: Int, cutAfter: Int? = nil) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\"><trk><trkseg>\n".utf8))
        var piece = ""
        for k in 0..<(cutAfter ?? points) {
            piece += trkpt(k)
            if piece.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(piece.utf8))
                piece = ""
            }
        }
        if cutAfter == nil { piece += "</trkseg></trk>\n</gpx>\n" }
        try handle.write(contentsOf: Data(piece.utf8))
    }

    /// Voltage `k` of a long electrocardiogram, with three decimals.
    static func voltage(_ k: Int) -> Double { Double(k % 20_000 - 10_000) / 1000 }

    /// An electrocardiogram CSV of `count` voltages; `bad` puts a line that is no voltage
    /// at that place.
    static func ecg(count: Int, date: String = "2020-12-08 10:25:23 -0800", bad: Int? = nil) -> String {
        var text = ImportECGTests.csv(voltages: [])
        text.reserveCapacity(count * 8)
        for k in 0..<count { text += k == bad ? "noise\n" : "\(voltage(k))\n" }
        return text
    }

    /// The export document: one workout naming `routes` (file names in `workout-routes`).
    static func xml(routes: [String]) -> String {
        ImportRouteTests.export(routes: routes)
    }

    /// The stored lines `export` writes, parsed.
    static func exported(_ store: HealthStore, type: String) throws -> [[String: Any]] {
        var out: [[String: Any]] = []
        _ = try store.export(ReplayRequest(types: [type])) { line in
            if let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { out.append(object) }
        }
        return out
    }

    /// How many rows the analysis exports (CSV, NDJSON rows) give the lines of `type`.
    static func analysisRows(_ store: HealthStore, type: String) throws -> Int {
        var rows = 0
        _ = try store.export(ReplayRequest(types: [type])) { line in
            if try EventTable.rowCells(line) != nil { rows += 1 }
        }
        return rows
    }

    @Test("A 150,000-point route beside export.xml imports whole in parts: every point in order through the library, export and the analysis rows; a delete takes all of it")
    func longRoute() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let count = 150_000
        try FileManager.default.createDirectory(atPath: dir.file("apple_health_export/workout-routes"), withIntermediateDirectories: true)
        try Data(Self.xml(routes: ["route_long.gpx"]).utf8).write(to: URL(fileURLWithPath: dir.file("apple_health_export/export.xml")))
        try Self.writeGPX(dir.file("apple_health_export/workout-routes/route_long.gpx"), points: count)
        let path = dir.file("apple_health_export/export.xml")
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.routeProblems.isEmpty)
        #expect(report.routeFilesRead == 1 && report.routeFileElements["trkpt"] == count)
        let parts = (count + SeriesParts.pointsPerPart - 1) / SeriesParts.pointsPerPart
        #expect(report.typeCounts[WorkoutRouteSample.type.identifier] == 1 && report.summary.added == parts + 2)

        let (routes, workouts) = try ImportRouteTests.samples(store)
        #expect(routes.count == 1)
        let route = try #require(routes.first)
        #expect(route.workout == workouts.first?.uuid)
        #expect(route.metadata[SeriesParts.partKey] == nil)
        #expect(route.locations.count == count)
        var inOrder = true
        for (k, point) in route.locations.enumerated() where point.latitude != Self.latitude(k) || point.longitude != Self.longitude(k) {
            inOrder = false
            break
        }
        #expect(inOrder)

        let lines = try Self.exported(store, type: WorkoutRouteSample.type.identifier)
        #expect(lines.count == parts)
        var exportedPoints: [Double] = []
        for (index, line) in lines.enumerated() {
            let metadata = line["metadata"] as? [String: Any]
            #expect((metadata?[SeriesParts.partKey] as? NSNumber)?.intValue == index)
            if index > 0 { #expect(metadata?[SeriesParts.seriesKey] as? String == route.uuid.description) }
            exportedPoints += (line["locations"] as? [[String: Any]] ?? []).compactMap { ($0["lat"] as? NSNumber)?.doubleValue }
        }
        // Foundation's JSON reader may round a number's last bit differently from Swift's.
        #expect(exportedPoints.count == count)
        #expect(zip(exportedPoints, 0..<count).allSatisfy { abs($0 - Self.latitude($1)) < 1e-9 })
        #expect(try Self.analysisRows(store, type: WorkoutRouteSample.type.identifier) == 1)

        try store.delete([route.uuid])
        #expect(try ImportRouteTests.samples(store).routes.isEmpty)
        #expect(try Self.exported(store, type: WorkoutRouteSample.type.identifier).isEmpty)
    }

    @Test("In a zip, a long route and a long electrocardiogram import whole; a cut-short long route and a long ECG with a bad line are named, and the rest imports")
    func zippedWithProblems() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let points = 25_000
        let voltages = 250_000
        try Self.writeGPX(dir.file("good.gpx"), points: points)
        try Self.writeGPX(dir.file("cut.gpx"), points: points, cutAfter: 15_000)
        let xml = Self.xml(routes: ["route_good.gpx", "route_cut.gpx"])
        let path = dir.file("export.zip")
        try ByteSurgery.write(StoredZip.make([
            ("apple_health_export/export.xml", Array(xml.utf8)),
            ("apple_health_export/workout-routes/route_good.gpx", Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("good.gpx"))))),
            ("apple_health_export/workout-routes/route_cut.gpx", Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("cut.gpx"))))),
            ("apple_health_export/electrocardiograms/ecg_2020-12-08.csv", Array(Self.ecg(count: voltages).utf8)),
            ("apple_health_export/electrocardiograms/ecg_2020-12-09.csv", Array(Self.ecg(count: voltages, date: "2020-12-09 10:00:00 -0800", bad: 200_000).utf8)),
        ]), to: path)
        let (report, store) = try ImportTests.importFresh(path, dir)

        #expect(report.routeProblems.map(\.file) == ["/workout-routes/route_cut.gpx"])
        #expect(report.routeProblems.first?.reason.contains("cut short") == true)
        #expect(report.electrocardiogramProblems.map(\.file) == ["apple_health_export/electrocardiograms/ecg_2020-12-09.csv"])
        #expect(report.electrocardiogramProblems.first?.reason.contains("'noise' is not a voltage") == true)
        #expect(report.electrocardiogramFilesRead == 1 && report.electrocardiogramVoltages == voltages)

        let routes = try ImportRouteTests.samples(store).routes
        #expect(routes.count == 1)
        #expect(routes.first?.locations.map(\.latitude) == (0..<points).map(Self.latitude) as [Double]?)
        let ecgs = try ImportECGTests.ecgs(store)
        #expect(ecgs.count == 1)
        let ecg = try #require(ecgs.first)
        #expect(ecg.voltages == (0..<voltages).map(Self.voltage))
        #expect(ecg.metadata[SeriesParts.partKey] == nil && ecg.samplingFrequency == 512)
        #expect(ecg.end.microseconds - ecg.start.microseconds == Int64(voltages) * 1_000_000 / 512 / 1000 * 1000)

        let ecgLines = try Self.exported(store, type: ElectrocardiogramSample.type.identifier)
        #expect(ecgLines.count == 3)
        let exportedVoltages = ecgLines.flatMap { ($0["voltages"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
        #expect(exportedVoltages.count == voltages)
        #expect(zip(exportedVoltages, 0..<voltages).allSatisfy { abs($0 - Self.voltage($1)) < 1e-9 })
        #expect(Set(ecgLines.map { $0["end"] as? String }).count == 1)
        #expect(try Self.analysisRows(store, type: ElectrocardiogramSample.type.identifier) == 1)

        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == report.summary.added)
        #expect(again.routeProblems.map(\.file) == ["/workout-routes/route_cut.gpx"] && again.electrocardiogramProblems.count == 1)
        try store.delete([ecg.uuid])
        #expect(try ImportECGTests.ecgs(store).isEmpty)
        #expect(try Self.exported(store, type: ElectrocardiogramSample.type.identifier).isEmpty)
    }

    @Test("An older export's inline route of 25,000 Location points imports in parts, joined back in order; re-import adds nothing")
    func inlineLocations() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let count = 25_000
        var xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2016-11-15 08:00:00 -0700\"/>\n"
        xml += " <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" sourceName=\"W\" startDate=\"2016-11-14 07:00:00 -0700\" endDate=\"2016-11-14 15:00:00 -0700\">\n"
        xml += "  <WorkoutRoute sourceName=\"W\" startDate=\"2016-11-14 07:00:00 -0700\" endDate=\"2016-11-14 15:00:00 -0700\">\n"
        for k in 0..<count {
            let seconds = k % 60
            let minutes = k / 60 % 60
            xml += "   <Location date=\"2016-11-14 \(k < 3 * 3600 ? "0" : "")\(7 + k / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds) -0700\" latitude=\"\(Self.latitude(k))\" longitude=\"\(Self.longitude(k))\" altitude=\"21.2\"/>\n"
        }
        xml += "  </WorkoutRoute>\n </Workout>\n</HealthData>\n"
        let path = dir.file("export.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.unmapped.isEmpty)
        #expect(report.typeCounts[WorkoutRouteSample.type.identifier] == 1)
        #expect(try Self.exported(store, type: WorkoutRouteSample.type.identifier).count == 3)
        let routes = try ImportRouteTests.samples(store).routes
        #expect(routes.count == 1 && routes.first?.locations.map(\.latitude) == (0..<count).map(Self.latitude) as [Double]?)
        #expect(try store.importExport(at: path).summary.added == 0)
    }

    @Test("A route of exactly one part's points is one line without part keys, as before")
    func onePartIsOneLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.writeGPX(dir.file("route.gpx"), points: SeriesParts.pointsPerPart)
        let path = try ImportRouteTests.makeZip(
            dir, xml: Self.xml(routes: ["route.gpx"]), files: [("route.gpx", String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.file("route.gpx"))), as: UTF8.self))])
        let (_, store) = try ImportTests.importFresh(path, dir)
        let lines = try Self.exported(store, type: WorkoutRouteSample.type.identifier)
        #expect(lines.count == 1)
        #expect((lines.first?["metadata"] as? [String: Any])?[SeriesParts.partKey] == nil)
        #expect((lines.first?["locations"] as? [Any])?.count == SeriesParts.pointsPerPart)
    }
}
