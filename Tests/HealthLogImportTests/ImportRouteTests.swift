import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Workout routes: GPX files in the zip or beside the XML, and older
/// exports' inline `Location` points, become route samples linked to their workout, every
/// route of a workout in several parts, idempotently; a missing or unreadable route file is
/// listed and the rest imports.
@Suite("Apple Health import: workout routes")
struct ImportRouteTests {
    /// A GPX document as the Health app writes it, one `trkpt` per point; `extensions` adds
    /// speed, course and the accuracies.
    static func gpx(points: Int, start: Int = 0, extensions: Bool = true) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
             <metadata><time>2024-03-01T17:00:00Z</time></metadata>
             <trk><name>Route 2024-03-01 6:00pm</name><trkseg>

            """
        for k in start..<start + points {
            let second = k % 60
            let minute = k / 60 % 60
            let time = "2024-03-01T\(17 + k / 3600):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second)Z"
            text += "<trkpt lon=\"\(-122.4 + Double(k) * 1e-5)\" lat=\"\(37.7 + Double(k) * 1e-5)\"><ele>\(10 + k % 7).5</ele><time>\(time)</time>"
            if extensions { text += "<extensions><speed>2.5</speed><course>\(k % 360)</course><hAcc>4.1</hAcc><vAcc>3.2</vAcc></extensions>" }
            text += "</trkpt>\n"
        }
        return text + "</trkseg></trk>\n</gpx>\n"
    }

    /// An export with one running workout whose routes name `files`.
    static func export(routes files: [String]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-02 08:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:00:00 +0100" value="120"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100">

            """
        for file in files {
            text += "  <WorkoutRoute sourceName=\"W\" startDate=\"2024-03-01 18:00:00 +0100\" endDate=\"2024-03-01 18:30:00 +0100\"><FileReference path=\"/workout-routes/\(file)\"/></WorkoutRoute>\n"
        }
        return text + " </Workout>\n</HealthData>\n"
    }

    /// Writes a zip of `export.xml` and the route files into `dir`.
    static func makeZip(_ dir: TemporaryDirectory, xml: String, files: [(String, String)], folder: String = "workout-routes") throws -> String {
        let path = dir.file("export.zip")
        let entries = [("apple_health_export/export.xml", Array(xml.utf8))] + files.map { ("apple_health_export/\(folder)/\($0.0)", Array($0.1.utf8)) }
        try ByteSurgery.write(StoredZip.make(entries), to: path)
        return path
    }

    /// The live route samples and workouts of `store`, decoded by the library.
    static func samples(_ store: HealthStore) throws -> (routes: [WorkoutRouteSample], workouts: [WorkoutSample]) {
        let result = try store.result(ReplayRequest(anchor: .beginning))
        return (result.addedSamples.compactMap { $0 as? WorkoutRouteSample }, result.addedSamples.compactMap { $0 as? WorkoutSample })
    }

    @Test("The fixture's GPX route points equal healthkit-to-sqlite 1.0.1's workout_points, and the route names its workout")
    func equalsHealthkitToSqlite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, store) = try ImportTests.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite-localised.zip"), dir)
        let data = try Data(contentsOf: URL(fileURLWithPath: PackageFiles.appleHealthExport("expected_healthkit-to-sqlite-1.0.1_workout_points.json")))
        let rows = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["workout_points"] as? [[Any]])
        let (routes, workouts) = try Self.samples(store)
        let route = try #require(routes.first)
        #expect(routes.count == 1 && report.typeCounts["HKWorkoutRouteTypeIdentifier"] == 1)
        #expect(route.workout == workouts.first?.fields.uuid)
        #expect(route.locations.count == rows.count)
        for (point, row) in zip(route.locations, rows) {
            #expect(point.time == Timestamp(iso8601: row[0] as? String ?? ""))
            let numbers = row.dropFirst().map { $0 as? Double }
            #expect([point.latitude, point.longitude, point.altitude, point.horizontalAccuracy, point.verticalAccuracy, point.course, point.speed] == numbers)
        }
        #expect(report.routeFilesRead == 1 && report.routeFileElements["trkpt"] == 3 && report.routeProblems.isEmpty)
    }

    @Test("An older export's inline Location points become a route of the workout, and nothing is reported as not mapped")
    func inlineLocations() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (report, store) = try ImportTests.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite.xml"), dir)
        #expect(report.unmappedCount == 0)
        let (routes, workouts) = try Self.samples(store)
        let route = try #require(routes.first)
        #expect(route.workout == workouts.first?.fields.uuid)
        #expect(route.locations.count == 2)
        #expect(route.locations[0] == RouteLocation(
            time: Timestamp(iso8601: "2016-11-14T07:25:44-07:00")!, latitude: 37.7777, longitude: -122.426, altitude: 21.2694, speed: 2.48034,
            course: -1, horizontalAccuracy: 2.40948, verticalAccuracy: 1.67859))
        #expect(route.fields.source == "Simon’s iPhone")
    }

    @Test("A workout in several parts keeps every route; a file named twice is one route; GPX without extensions keeps what it has")
    func multiPart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let xml = Self.export(routes: ["route_1.gpx", "route_2.gpx", "route_1.gpx"])
        let path = try Self.makeZip(dir, xml: xml, files: [("route_1.gpx", Self.gpx(points: 5)), ("route_2.gpx", Self.gpx(points: 4, start: 5, extensions: false))])
        let (report, store) = try ImportTests.importFresh(path, dir)
        let (routes, workouts) = try Self.samples(store)
        #expect(routes.count == 2)
        #expect(routes.allSatisfy { $0.workout == workouts.first?.fields.uuid })
        #expect(routes.map(\.locations.count).sorted() == [4, 5])
        let plain = try #require(routes.first { $0.locations.count == 4 })
        #expect(plain.locations.allSatisfy { $0.speed == nil && $0.course == nil && $0.horizontalAccuracy == nil && $0.altitude != nil })
        let full = try #require(routes.first { $0.locations.count == 5 })
        #expect(full.locations[1] == RouteLocation(
            time: Timestamp(iso8601: "2024-03-01T17:00:01Z")!, latitude: 37.7 + 1e-5, longitude: -122.4 + 1e-5, altitude: 11.5, speed: 2.5, course: 1,
            horizontalAccuracy: 4.1, verticalAccuracy: 3.2))
        #expect(report.typeCounts["HKWorkoutRouteTypeIdentifier"] == 2 && report.routeFilesRead == 2 && report.routeFileElements["trkpt"] == 9)
        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == report.summary.added)
    }

    @Test("A route file the zip lacks, one cut short, and one that is not GPX are listed by name; the rest imports")
    func problemsListed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let xml = Self.export(routes: ["route_ok.gpx", "route_missing.gpx", "route_cut.gpx", "route_other.gpx"])
        let cut = String(Self.gpx(points: 50).prefix(2000))
        let path = try Self.makeZip(dir, xml: xml, files: [
            ("route_ok.gpx", Self.gpx(points: 3)), ("route_cut.gpx", cut), ("route_other.gpx", "<?xml version=\"1.0\"?>\n<kml/>\n"),
        ])
        let (report, store) = try ImportTests.importFresh(path, dir)
        let problems = Dictionary(uniqueKeysWithValues: report.routeProblems.map { ($0.file, $0.reason) })
        #expect(problems.count == 3)
        #expect(problems["/workout-routes/route_missing.gpx"] == "the zip holds no such file")
        #expect(problems["/workout-routes/route_cut.gpx"]?.contains("route_cut.gpx: the route ends before </gpx>, at line ") == true)
        #expect(problems["/workout-routes/route_other.gpx"]?.hasSuffix("route_other.gpx: line 2: the root element is kml, not gpx: not a GPX route") == true)
        #expect(report.routeProblems.allSatisfy { $0.line == 6 || $0.line == 7 || $0.line == 8 || $0.line == 9 })
        let (routes, workouts) = try Self.samples(store)
        #expect(routes.count == 1 && routes[0].locations.count == 3)
        #expect(workouts.count == 1 && report.typeCounts["HKQuantityTypeIdentifierHeartRate"] == 1)
    }

    @Test("A route in another folder of the zip is found by its file name")
    func foundByName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeZip(dir, xml: Self.export(routes: ["route_a.gpx"]), files: [("route_a.gpx", Self.gpx(points: 2))], folder: "Trainingsrouten")
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.routeProblems.isEmpty)
        #expect(try Self.samples(store).routes.first?.locations.count == 2)
    }

    @Test("An unzipped export reads its routes from the workout-routes folder beside export.xml")
    func besideTheXML() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("apple_health_export/workout-routes"), withIntermediateDirectories: true)
        try Self.export(routes: ["route_a.gpx", "route_b.gpx"]).write(toFile: dir.file("apple_health_export/export.xml"), atomically: true, encoding: .utf8)
        try Self.gpx(points: 3).write(toFile: dir.file("apple_health_export/workout-routes/route_a.gpx"), atomically: true, encoding: .utf8)
        let (report, store) = try ImportTests.importFresh(dir.file("apple_health_export/export.xml"), dir)
        #expect(try Self.samples(store).routes.map(\.locations.count) == [3])
        #expect(report.routeProblems.map(\.file) == ["/workout-routes/route_b.gpx"])
        #expect(report.routeProblems.first?.reason.hasPrefix("no such file beside the export document") == true)
    }

    @Test("A 10,000-point route imports whole, and comes back through replay and the library")
    func longRoute() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeZip(dir, xml: Self.export(routes: ["route_long.gpx"]), files: [("route_long.gpx", Self.gpx(points: 10_000))])
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.routeFileElements["trkpt"] == 10_000)
        let route = try #require(try Self.samples(store).routes.first)
        #expect(route.locations.count == 10_000)
        #expect(route.locations.last?.time == Timestamp(iso8601: "2024-03-01T19:46:39Z"))
        let line = try #require(try ImportTests.lines(store).first { $0["type"] as? String == "HKWorkoutRouteTypeIdentifier" })
        #expect((line["locations"] as? [Any])?.count == 10_000)
    }

    @Test("--mirror keeps the routes of an export imported again, and deletes a dropped workout's routes with it")
    func mirrorKeepsRoutes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeZip(dir, xml: Self.export(routes: ["route_1.gpx", "route_2.gpx"]), files: [("route_1.gpx", Self.gpx(points: 3)), ("route_2.gpx", Self.gpx(points: 2, start: 3))])
        let (_, store) = try ImportTests.importFresh(path, dir)
        var options = ImportOptions()
        options.mirror = true
        let same = try store.importExport(at: path, options: options)
        #expect(same.summary.deleted == 0)
        let withoutWorkout = Self.export(routes: []).replacingOccurrences(of: #"<Workout "#, with: "<!-- ").replacingOccurrences(of: "</Workout>", with: "-->")
        let smaller = try Self.makeZip(dir, xml: withoutWorkout, files: [])
        let mirrored = try store.importExport(at: smaller, options: options)
        #expect(mirrored.summary.deleted == 3)
        let (routes, workouts) = try Self.samples(store)
        #expect(routes.isEmpty && workouts.isEmpty)
    }
}
