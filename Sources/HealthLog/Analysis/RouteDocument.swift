/// Workout routes as a file a map application or a spreadsheet opens: GPX 1.1 (a `trk` per
/// route), GeoJSON (a `FeatureCollection`, a `LineString` feature per route) or CSV (a row
/// per point). Every point keeps its time, coordinates, altitude, speed, course and both
/// accuracies as stored, numbers written in their shortest decimal form.
package struct RouteDocument {
    /// The file formats.
    package enum Format: String, CaseIterable, Sendable {
        case gpx, geojson, csv
    }

    /// The namespace of the GPX `extensions` elements `speed`, `course`, `hAcc` and `vAcc`
    /// (the names Apple's export gives them), so the file is valid against the GPX 1.1
    /// schema, which allows only elements of another namespace there.
    package static let extensionsNamespace = "urn:healthlog:gpx-route:1"

    /// The routes, in the order written.
    package var routes: [WorkoutRouteSample]
    /// The format.
    package var format: Format
    /// When the file is written (the GPX `metadata` time).
    package var written: Timestamp

    /// A document of `routes` in `format`.
    package init(routes: [WorkoutRouteSample], format: Format, written: Timestamp = .now()) {
        self.routes = routes
        self.format = format
        self.written = written
    }

    /// Writes the document in pieces (a route's points at a time) to `emit`.
    package func write(_ emit: (String) throws -> Void) throws {
        switch format {
        case .gpx: try writeGPX(emit)
        case .geojson: try writeGeoJSON(emit)
        case .csv: try writeCSV(emit)
        }
    }

    /// Writes the document to `path` atomically, mode 0600 (routes are health data).
    package func write(to path: String) throws {
        try DurableFile.replace(path) { fd in
            var offset = 0
            try write { text in
                let bytes = Array(text.utf8)
                try fd.write(bytes, at: offset)
                offset += bytes.count
            }
        }
    }

    /// GPX 1.1: `metadata` (name, time written, bounds), then a `trk` of one `trkseg` per route.
    private func writeGPX(_ emit: (String) throws -> Void) throws {
        var head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        head += #"<gpx version="1.1" creator="healthlog" xmlns="http://www.topografix.com/GPX/1/1" "#
        head += #"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:hl="\#(Self.extensionsNamespace)" "#
        head += #"xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">"# + "\n"
        head += "  <metadata>\n    <name>\(routes.count == 1 ? "Workout route" : "\(routes.count) workout routes")</name>\n"
        head += "    <time>\(written)</time>\n"
        let points = routes.flatMap(\.locations)
        if let first = points.first {
            var (minLat, maxLat, minLon, maxLon) = (first.latitude, first.latitude, first.longitude, first.longitude)
            for point in points {
                minLat = min(minLat, point.latitude)
                maxLat = max(maxLat, point.latitude)
                minLon = min(minLon, point.longitude)
                maxLon = max(maxLon, point.longitude)
            }
            head += #"    <bounds minlat="\#(Self.decimal(minLat))" minlon="\#(Self.decimal(minLon))" maxlat="\#(Self.decimal(maxLat))" maxlon="\#(Self.decimal(maxLon))"/>"#
            head += "\n"
        }
        try emit(head + "  </metadata>\n")
        for route in routes {
            var out = "  <trk>\n    <name>Route \(route.start)</name>\n"
            if let workout = route.workout { out += "    <desc>workout \(workout), route \(route.uuid)</desc>\n" }
            out += "    <trkseg>\n"
            for point in route.locations {
                out += #"      <trkpt lat="\#(Self.decimal(point.latitude))" lon="\#(Self.decimal(point.longitude))">"#
                if let altitude = point.altitude { out += "<ele>\(Self.decimal(altitude))</ele>" }
                out += "<time>\(point.time)</time>"
                let extensions = [("speed", point.speed), ("course", point.course), ("hAcc", point.horizontalAccuracy), ("vAcc", point.verticalAccuracy)]
                    .compactMap { name, value in value.map { "<hl:\(name)>\(Self.decimal($0))</hl:\(name)>" } }
                if !extensions.isEmpty { out += "<extensions>\(extensions.joined())</extensions>" }
                out += "</trkpt>\n"
            }
            try emit(out + "    </trkseg>\n  </trk>\n")
        }
        try emit("</gpx>\n")
    }

    /// A `FeatureCollection`: a `LineString` feature per route (a `Point` for one point, a
    /// `null` geometry for a route without points).
    private func writeGeoJSON(_ emit: (String) throws -> Void) throws {
        try emit(#"{"type":"FeatureCollection","features":["#)
        for (index, route) in routes.enumerated() {
            func list(_ value: (RouteLocation) -> Double?) -> String {
                "[" + route.locations.map { value($0).map(Self.decimal) ?? "null" }.joined(separator: ",") + "]"
            }
            let positions = route.locations.map { point in
                "[" + ([point.longitude, point.latitude] + (point.altitude.map { [$0] } ?? [])).map(Self.decimal).joined(separator: ",") + "]"
            }
            let geometry =
                switch positions.count {
                case 0: "null"
                case 1: #"{"type":"Point","coordinates":\#(positions[0])}"#
                default: #"{"type":"LineString","coordinates":[\#(positions.joined(separator: ","))]}"#
                }
            var properties = #""route":"\#(route.uuid)""#
            if let workout = route.workout { properties += #","workout":"\#(workout)""# }
            properties += #","start":"\#(route.start)","end":"\#(route.end)""#
            properties += #","coordTimes":[\#(route.locations.map { "\"\($0.time)\"" }.joined(separator: ","))]"#
            properties += #","speeds":\#(list(\.speed)),"courses":\#(list(\.course))"#
            properties += #","horizontalAccuracies":\#(list(\.horizontalAccuracy)),"verticalAccuracies":\#(list(\.verticalAccuracy))"#
            try emit((index == 0 ? "\n" : ",\n") + #"{"type":"Feature","geometry":\#(geometry),"properties":{\#(properties)}}"#)
        }
        try emit("\n]}\n")
    }

    /// A header row, then a row per point.
    private func writeCSV(_ emit: (String) throws -> Void) throws {
        try emit("route,workout,time,latitude,longitude,altitude,speed,course,horizontal_accuracy,vertical_accuracy\n")
        for route in routes {
            let prefix = "\(route.uuid),\(route.workout.map { "\($0)" } ?? ""),"
            var out = ""
            for point in route.locations {
                let numbers = [point.latitude, point.longitude, point.altitude, point.speed, point.course, point.horizontalAccuracy, point.verticalAccuracy]
                out += prefix + "\(point.time)," + numbers.map { $0.map(Self.decimal) ?? "" }.joined(separator: ",") + "\n"
            }
            try emit(out)
        }
    }

    /// `value` as a plain decimal (no exponent, as GPX's `xsd:decimal` requires): the
    /// shortest digits that read back as the same `Double`.
    static func decimal(_ value: Double) -> String {
        let text = JSONText.number(value)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = String(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        let digits = mantissa.filter { $0 != "." }
        let at = point + exponent
        var out: String
        if at <= 0 {
            out = "0." + String(repeating: "0", count: -at) + digits
        } else if at >= digits.count {
            out = digits + String(repeating: "0", count: at - digits.count)
        } else {
            out = String(digits.prefix(at)) + "." + String(digits.dropFirst(at))
        }
        if out.contains(".") {
            while out.hasSuffix("0") { out.removeLast() }
            if out.hasSuffix(".") { out.removeLast() }
        }
        return (negative ? "-" : "") + out
    }
}
