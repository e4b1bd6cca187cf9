import HealthLog

/// Reads a workout route's GPX file (GPX 1.1 as the Health app writes it: `trk` → `trkseg`
/// → `trkpt lat= lon=` with `ele`, `time` and, in `extensions`, `speed`, `course`, `hAcc`,
/// `vAcc`, with or without a namespace prefix, as `healthlog route` writes them) as a stream
/// into route points, every `trkpt` of every segment in order.
enum GPXReader {
    /// The `trkpt` children whose text the points keep.
    private static let pointFields: Set<String> = ["ele", "time", "speed", "course", "hAcc", "vAcc"]

    /// The points of the GPX document in `source`, counting its elements by name into
    /// `counts`. Every `partLimit` points (``SeriesParts/pointsPerPart`` for a route stored
    /// in parts) are handed to `part` once the next point to keep comes, and the points
    /// start again from none: the points returned are those after the last part.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming the file when it is not GPX, is
    ///   malformed XML (line and column), or ends before `</gpx>`; whatever `part` throws.
    static func points(
        _ source: any ExportByteSource, counts: inout [String: Int], partLimit: Int = .max, part: (RoutePoints) throws -> Void = { _ in }
    ) throws -> RoutePoints {
        let reader = try XMLStreamReader(source, readsText: true, refusingDeclarations: true)
        let name = source.documentName
        let first: XMLStreamReader.Node?
        do {
            first = try reader.next()
        } catch let error as HealthLogError where reader.endsBefore("</gpx>") {
            throw cutShort(name, reader, detail: reader.parseError?.message ?? error.message)
        }
        guard case .start(let root, _, let isEmpty)? = first else {
            throw HealthLogError(.badInput, "\(name): the file holds no element: not a GPX route")
        }
        guard root == "gpx" else {
            throw HealthLogError(.badInput, "\(name): line \(reader.line): the root element is \(root), not gpx: not a GPX route")
        }
        counts["gpx", default: 0] += 1
        if isEmpty { return RoutePoints() }
        var points = RoutePoints()
        var depth = 1
        var point: (lat: String?, lon: String?, fields: [String: String])?
        var text = ""
        func finishPoint() throws {
            guard let p = point else { return }
            let time = p.fields["time"].flatMap { text in Timestamp(iso8601: text).map { ExportInstant(iso: text, instant: $0) } }
            if points.count == partLimit, time != nil, RoutePoints.coordinates(latitude: p.lat, longitude: p.lon) != nil {
                try part(points)
                points.startNextPart()
            }
            points.add(
                time: time, latitude: p.lat, longitude: p.lon, altitude: p.fields["ele"], speed: p.fields["speed"], course: p.fields["course"],
                horizontalAccuracy: p.fields["hAcc"], verticalAccuracy: p.fields["vAcc"])
            point = nil
        }
        do {
            while let node = try reader.next() {
                switch node {
                case .start(let element, let attributes, let isEmpty):
                    counts[element, default: 0] += 1
                    text = ""
                    if element == "trkpt" {
                        func value(_ key: String) -> String? { attributes.first(where: { $0.name == key })?.value }
                        point = (value("lat"), value("lon"), [:])
                        if isEmpty { try finishPoint() }
                    }
                    if !isEmpty { depth += 1 }
                    if depth > ImportLimits.depth {
                        throw HealthLogError(.badInput, "\(name): line \(reader.line): element \(element) is nested \(depth) deep, deeper than the \(ImportLimits.depth) the import reads")
                    }
                case .text(let chunk):
                    if point != nil { text += chunk }
                case .end(let element):
                    depth -= 1
                    if element == "trkpt" {
                        try finishPoint()
                    } else if point != nil, case let local = element.localName, pointFields.contains(local) {
                        point?.fields[local] = text.withoutBlanks
                    }
                    text = ""
                    if depth == 0 {
                        while try reader.next() != nil {}
                        return points
                    }
                }
            }
        } catch let error as HealthLogError where reader.endsBefore("</gpx>") {
            throw cutShort(name, reader, detail: reader.parseError?.message ?? error.message)
        }
        throw cutShort(name, reader, detail: nil)
    }

    /// The error for a GPX file that ends before `</gpx>`.
    private static func cutShort(_ name: String, _ reader: XMLStreamReader, detail: String?) -> HealthLogError {
        var message = "\(name): the route ends before </gpx>, at line \(reader.lastLine): the file is cut short"
        if let detail { message += " (libxml2: \(detail))" }
        return HealthLogError(.badInput, message)
    }
}

extension String {
    /// The element name without its namespace prefix (`hl:speed` is `speed`).
    fileprivate var localName: String {
        guard let colon = lastIndex(of: ":") else { return self }
        return String(self[index(after: colon)...])
    }

    /// The string without leading and trailing blanks (spaces, tabs, newlines).
    fileprivate var withoutBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        guard let first = firstIndex(where: { !blanks.contains($0) }), let last = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
