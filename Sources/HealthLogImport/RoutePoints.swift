import HealthLog

/// The points of one workout route as the event line's `locations` array, rendered as they
/// are read (from a GPX file's `trkpt`s or an older export's `Location` elements), so a
/// route costs its line's bytes and no more.
struct RoutePoints: Sendable {
    /// The JSON array so far, without its closing `]`.
    private(set) var json: [UInt8] = [0x5B]
    /// Points kept.
    private(set) var count = 0
    /// Points left out: no time, or coordinates that are not numbers.
    private(set) var leftOut = 0
    /// The first and last points' times.
    private(set) var first: SampleDraft.Instant?
    private(set) var last: SampleDraft.Instant?
    /// Where in ``json`` the comma before each ``SeriesParts/pointsPerPart``-th point is,
    /// so a route read whole (inline points) splits into parts (``parts``).
    private var partCommas: [Int] = []

    /// Adds a point; the numbers are texts as the file writes them. A point without a time
    /// or with coordinates that are not numbers is counted in ``leftOut``; an optional
    /// number that is not one is dropped.
    mutating func add(
        time: SampleDraft.Instant?, latitude: String?, longitude: String?, altitude: String?, speed: String?, course: String?,
        horizontalAccuracy: String?, verticalAccuracy: String?
    ) {
        guard let time, let (lat, lon) = Self.coordinates(latitude: latitude, longitude: longitude) else {
            leftOut += 1
            return
        }
        if count > 0 {
            if count % SeriesParts.pointsPerPart == 0 { partCommas.append(json.count) }
            json.append(0x2C)
        }
        json += Array(#"{"time":"#.utf8)
        time.appendISO(to: &json)
        json += Array(#","lat":"#.utf8) + Array(lat.utf8) + Array(#","lon":"#.utf8) + Array(lon.utf8)
        for (key, text) in [("alt", altitude), ("speed", speed), ("course", course), ("hAcc", horizontalAccuracy), ("vAcc", verticalAccuracy)] {
            guard let number = text.flatMap(ExportMapper.number) else { continue }
            json += Array(",\"\(key)\":".utf8) + Array(number.utf8)
        }
        json.append(0x7D)
        count += 1
        if first == nil { first = time }
        last = time
    }

    /// The whole array, closed.
    var array: [UInt8] { json + [0x5D] }

    /// The points as the arrays of the parts of a route stored in parts (``SeriesParts``),
    /// ``SeriesParts/pointsPerPart`` points each: ``array`` alone when they fit one part.
    var parts: [[UInt8]] {
        guard !partCommas.isEmpty else { return [array] }
        let starts = [1] + partCommas.map { $0 + 1 }
        let ends = partCommas + [json.count]
        return zip(starts, ends).map { [0x5B] + json[$0..<$1] + [0x5D] }
    }

    /// The coordinates as JSON numbers, or `nil` when they are not numbers within ±90 and
    /// ±180 degrees: a point ``add`` keeps has a time and these.
    static func coordinates(latitude: String?, longitude: String?) -> (lat: String, lon: String)? {
        guard let lat = latitude.flatMap(ExportMapper.number), let lon = longitude.flatMap(ExportMapper.number),
            let latValue = Double(lat), abs(latValue) <= 90, let lonValue = Double(lon), abs(lonValue) <= 180
        else { return nil }
        return (lat, lon)
    }

    /// Empties the array for the next part of a route stored in parts (``SeriesParts``),
    /// keeping the count of points left out.
    mutating func startNextPart() {
        json = [0x5B]
        partCommas = []
        count = 0
        first = nil
        last = nil
    }
}

extension RoutePoints {
    /// Adds an older export's `<Location date=… latitude=… longitude=… altitude=…
    /// horizontalAccuracy=… verticalAccuracy=… course=… speed=…/>`.
    mutating func add(location attributes: [ExportAttribute]) {
        func value(_ name: String) -> String? { attributes.first(where: { $0.name == name })?.value }
        add(
            time: value("date").flatMap(ExportDateFormat.instant), latitude: value("latitude"), longitude: value("longitude"),
            altitude: value("altitude"), speed: value("speed"), course: value("course"), horizontalAccuracy: value("horizontalAccuracy"),
            verticalAccuracy: value("verticalAccuracy"))
    }
}
