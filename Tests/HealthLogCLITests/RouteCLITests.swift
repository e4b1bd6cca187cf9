import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog route`: an imported route comes back point for point as GPX, GeoJSON or CSV;
/// a UUID without a route is refused with exit 2 and nothing written.
@Suite("route")
struct RouteCLITests {
    /// One route point as a GPX file gives it: the attributes and child texts.
    struct Point: Equatable {
        var lat: Double
        var lon: Double
        var ele: Double?
        var time: String
        var speed: Double?
        var course: Double?
        var hAcc: Double?
        var vAcc: Double?
    }

    /// Point `k` of a test route: the fields vary, some are left out, some numbers are tiny
    /// (Swift writes them with an exponent), the coordinates go negative.
    static func point(_ k: Int) -> Point {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "2024-03-01T\(two(17 + k / 3600)):\(two(k / 60 % 60)):\(two(k % 60))\(k % 7 == 0 ? ".25" : "")Z"
        return Point(
            lat: -33.5 + Double(k) * 1e-6, lon: 151.25 - Double(k) * 3e-7, ele: k % 11 == 0 ? nil : Double(k % 500) / 8, time: time,
            speed: k % 5 == 0 ? nil : Double(k % 40) * 0.1, course: k % 13 == 0 ? 1e-7 : Double(k % 360), hAcc: 4.5, vAcc: k % 3 == 0 ? nil : 0.00001 * Double(k % 9))
    }

    /// A GPX file as Apple's export writes it, of `points`.
    static func gpx(_ points: [Point]) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += #"<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1"><metadata><time>2024-03-02T08:00:00Z</time></metadata><trk><name>Route</name><trkseg>"# + "\n"
        for p in points {
            text += #"<trkpt lon="\#(p.lon)" lat="\#(p.lat)">"# + (p.ele.map { "<ele>\($0)</ele>" } ?? "") + "<time>\(p.time)</time><extensions>"
            for (name, value) in [("speed", p.speed), ("course", p.course), ("hAcc", p.hAcc), ("vAcc", p.vAcc)] {
                if let value { text += "<\(name)>\(value)</\(name)>" }
            }
            text += "</extensions></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// The points of a GPX document, read by regular expression (one `trkpt` a line, in
    /// any namespace prefix for the extensions).
    static func points(ofGPX text: String) -> [Point] {
        var attributes: [String: Regex<AnyRegexOutput>] = [:]
        var children: [String: Regex<AnyRegexOutput>] = [:]
        for name in ["lat", "lon"] { attributes[name] = try! Regex(" \(name)=\"([^\"]*)\"") }
        for name in ["ele", "time", "speed", "course", "hAcc", "vAcc"] { children[name] = try! Regex("<(?:\\w+:)?\(name)>([^<]*)</") }
        return text.split(separator: "\n").filter { $0.contains("<trkpt ") }.map { line in
            func attribute(_ name: String) -> Double {
                Double(line.firstMatch(of: attributes[name]!)!.output[1].substring!)!
            }
            func child(_ name: String) -> String? {
                line.firstMatch(of: children[name]!)?.output[1].substring.map(String.init)
            }
            return Point(
                lat: attribute("lat"), lon: attribute("lon"), ele: child("ele").flatMap(Double.init), time: child("time")!,
                speed: child("speed").flatMap(Double.init), course: child("course").flatMap(Double.init), hAcc: child("hAcc").flatMap(Double.init),
                vAcc: child("vAcc").flatMap(Double.init))
        }
    }

    /// An export folder: `export.xml` with one workout per route of `routes` (each workout
    /// an hour after the last, from 2024-03-01 18:00 +0100), the GPX files beside it, and a
    /// heart-rate record.
    static func exportFolder(_ dir: TemporaryDirectory, routes: [[Point]], bare: Int = 0) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.file("export/workout-routes"), withIntermediateDirectories: true)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-02 08:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:00:00 +0100" value="120"/>

            """
        for k in 0..<(routes.count + bare) {
            let hour = 18 + 4 * k
            let clock = "2024-03-0\(1 + hour / 24) \(hour % 24 < 10 ? "0" : "")\(hour % 24)"
            let dates = #"startDate="\#(clock):00:00 +0100" endDate="\#(clock):59:00 +0100""#
            xml += #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="59" durationUnit="min" sourceName="W" \#(dates)>"#
            if k < routes.count {
                try ByteSurgery.write(Array(gpx(routes[k]).utf8), to: dir.file("export/workout-routes/route_\(k).gpx"))
                xml += #"<WorkoutRoute sourceName="W" \#(dates)><FileReference path="/workout-routes/route_\#(k).gpx"/></WorkoutRoute>"#
            }
            xml += "</Workout>\n"
        }
        try ByteSurgery.write(Array((xml + "</HealthData>\n").utf8), to: dir.file("export/export.xml"))
        return dir.file("export/export.xml")
    }

    /// The UUIDs of the store's live samples of `type`, in the order added.
    static func uuids(_ store: String, type: String) throws -> [String] {
        let result = try HealthLogBinary.run(["--store", store, "export", "--type", type])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            (try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])["uuid"] as! String
        }
    }

    @Test("GPX in, GPX out: every point of a route longer than one stored part keeps its time, coordinates, elevation, speed, course and accuracies")
    func gpxRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let original = (0..<12_345).map(Self.point)
        let store = dir.file("store")
        let export = try Self.exportFolder(dir, routes: [original])
        #expect(try HealthLogBinary.run(["--store", store, "import", "--no-sync", export]).status == 0)
        let workout = try #require(try Self.uuids(store, type: "HKWorkoutTypeIdentifier").first)
        let out = dir.file("route.gpx")
        let result = try HealthLogBinary.run(["--store", store, "route", workout, "-o", out])
        GoldenTests.expect(result, status: 0, stderr: "healthlog: route: 12345 points of 1 route written to \(out)\n")
        #expect(try ByteSurgery.mode(out) & 0o777 == 0o600)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<gpx version="1.1" creator="healthlog" xmlns="http://www.topografix.com/GPX/1/1""#))
        let last = Self.point(original.count - 1)
        #expect(text.contains("<metadata>") && text.contains(#"<bounds minlat="-33.5" minlon="\#(last.lon)" maxlat="\#(last.lat)" maxlon="151.25"/>"#))
        #expect(!text.contains("e-"), "xsd:decimal has no exponent")
        let written = Self.points(ofGPX: text)
        #expect(written.count == original.count)
        #expect(written == original)
        // The file reads back in: imported again, the route is the same.
        let again = dir.file("again")
        try ByteSurgery.write(Array(text.utf8), to: dir.file("export/workout-routes/route_0.gpx"))
        #expect(try HealthLogBinary.run(["--store", again, "import", "--no-sync", export]).status == 0)
        let second = try HealthLogBinary.run(["--store", again, "route", try #require(try Self.uuids(again, type: "HKWorkoutTypeIdentifier").first)])
        #expect(Self.points(ofGPX: second.stdout) == original)
    }

    @Test("GeoJSON is a FeatureCollection with a LineString (lon, lat, elevation) and per-point times in coordTimes; CSV is a row per point")
    func geoJSONAndCSV() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let original = (0..<50).map(Self.point)
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "import", "--no-sync", try Self.exportFolder(dir, routes: [original])]).status == 0)
        let workout = try #require(try Self.uuids(store, type: "HKWorkoutTypeIdentifier").first)
        let geo = try HealthLogBinary.run(["--store", store, "route", workout, "--format", "geojson"])
        #expect(geo.status == 0)
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let feature = try #require((collection["features"] as? [[String: Any]])?.first)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        let coordinates = try #require(geometry["coordinates"] as? [[Double]])
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["workout"] as? String == workout)
        let times = try #require(properties["coordTimes"] as? [String])
        let speeds = try #require(properties["speeds"] as? [Any])
        #expect(coordinates.count == original.count && times.count == original.count && speeds.count == original.count)
        for (k, p) in original.enumerated() {
            #expect(zip(coordinates[k], [p.lon, p.lat] + (p.ele.map { [$0] } ?? [])).allSatisfy { abs($0 - $1) < 1e-9 })
            #expect(coordinates[k].count == (p.ele == nil ? 2 : 3))
            #expect(times[k] == p.time)
            // Foundation's JSON reader may miss the nearest Double by an ulp or two.
            #expect(abs(((speeds[k] as? Double) ?? -1) - (p.speed ?? -1)) < 1e-12)
        }
        let csv = try HealthLogBinary.run(["--store", store, "route", workout, "--format", "csv"])
        let rows = csv.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.first == "route,workout,time,latitude,longitude,altitude,speed,course,horizontal_accuracy,vertical_accuracy")
        #expect(rows.count == original.count + 1)
        let cells = rows[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(cells[1] == Substring(workout) && cells[2] == Substring(original[0].time) && Double(cells[3]) == original[0].lat)
    }

    @Test("--start and --end write every route of the range into one GPX, a trk each; a range without a route writes nothing and exits 2")
    func dateRange() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let routes = [(0..<20).map(Self.point), (100..<130).map(Self.point), (200..<210).map(Self.point)]
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "import", "--no-sync", try Self.exportFolder(dir, routes: routes)]).status == 0)
        // The workouts start at 17:00Z, 21:00Z and 01:00Z the next day.
        let result = try HealthLogBinary.run(["--store", store, "route", "--start", "2024-03-01T20:00:00Z", "--end", "2024-03-02"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "<trk>").count - 1 == 1)
        #expect(Self.points(ofGPX: result.stdout) == routes[1])
        let all = try HealthLogBinary.run(["--store", store, "route", "--start", "2024-03-01", "--end", "2024-03-03", "-o", dir.file("all.gpx")])
        #expect(all.status == 0)
        let text = try String(contentsOfFile: dir.file("all.gpx"), encoding: .utf8)
        #expect(text.components(separatedBy: "<trk>").count - 1 == 3)
        #expect(Self.points(ofGPX: text) == routes.flatMap { $0 })
        let none = try HealthLogBinary.run(["--store", store, "route", "--start", "2024-04-01", "--end", "2024-05-01", "-o", dir.file("none.gpx")])
        #expect(none.status == 2)
        #expect(none.stderr == "healthlog: error: no live workout route overlaps the range; no file written\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("none.gpx")))
    }

    @Test("An unknown UUID, a workout without a route and a sample that is not a workout exit 2 naming the problem, and write nothing")
    func refusals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "import", "--no-sync", try Self.exportFolder(dir, routes: [[Self.point(0)]], bare: 1)]).status == 0)
        let workouts = try Self.uuids(store, type: "HKWorkoutTypeIdentifier")
        let heartRate = try #require(try Self.uuids(store, type: "HKQuantityTypeIdentifierHeartRate").first)
        let out = dir.file("out.gpx")
        let unknown = "0F0E0D0C-0B0A-4908-8706-050403020100"
        let cases = [
            (unknown, "no live sample has UUID \(unknown)"),
            (workouts[1], "workout \(workouts[1]) has no route"),
            (heartRate, "\(heartRate) is a HKQuantityTypeIdentifierHeartRate sample, not a workout: give a workout's UUID (or a route's)"),
        ]
        for (uuid, message) in cases {
            GoldenTests.expect(try HealthLogBinary.run(["--store", store, "route", uuid, "-o", out]), status: 2, stderr: "healthlog: error: \(message)\n")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // The workout with a route, and the route's own UUID, give the same one-point GPX.
        let route = try #require(try Self.uuids(store, type: "HKWorkoutRouteTypeIdentifier").first)
        let byWorkout = try HealthLogBinary.run(["--store", store, "route", workouts[0]])
        let byRoute = try HealthLogBinary.run(["--store", store, "route", route])
        #expect(Self.points(ofGPX: byWorkout.stdout) == [Self.point(0)])
        #expect(Self.points(ofGPX: byRoute.stdout) == [Self.point(0)])
        let both = try HealthLogBinary.run(["--store", store, "route", route, "--start", "2024-03-01"])
        #expect(both.status == 2 && both.stderr.hasPrefix("healthlog: error: give a workout's UUID or --start/--end, not both\n"))
        let neither = try HealthLogBinary.run(["--store", store, "route"])
        #expect(neither.status == 2 && neither.stderr.contains("healthlog route UUID"))
    }
}
