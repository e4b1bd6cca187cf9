/// Parses a workout route's `locations`: an array of points, each an object with `time`
/// (an ISO 8601 instant), `lat` and `lon` (degrees, within ±90 and ±180), and optionally
/// the numbers `alt`, `speed`, `course`, `hAcc`, `vAcc`; no other keys, none twice.
enum LocationsParser {
    /// The optional number keys, in ``RouteLocation``'s order.
    private static let optionalKeys: [StaticString] = ["\"alt\"", "\"speed\"", "\"course\"", "\"hAcc\"", "\"vAcc\""]

    /// Checks the array at the scanner's position and returns its token's range.
    static func parse(_ s: inout JSONScanner) throws -> Range<Int> {
        var none: [RouteLocation]?
        return try parse(&s, collecting: &none)
    }

    /// Checks the array at the scanner's position and returns its token's range; appends
    /// each point to `points` unless it is `nil`.
    private static func parse(_ s: inout JSONScanner, collecting points: inout [RouteLocation]?) throws -> Range<Int> {
        guard s.peek() == 0x5B else { throw FieldError(field: "locations", reason: "must be an array of points") }
        let start = s.position
        s.position += 1
        if s.peek() == 0x5D {
            s.position += 1
            return start..<s.position
        }
        var index = 0
        while true {
            index += 1
            let point = try parsePoint(&s, index)
            points?.append(point)
            guard let next = s.peek() else { throw s.error("expected ',' or ']'") }
            s.position += 1
            if next == 0x5D { return start..<s.position }
            guard next == 0x2C else { throw s.error("expected ',' or ']'") }
        }
    }

    /// The points of a `locations` token already checked by ``parse(_:)``; empty if it
    /// does not parse.
    static func decode(_ token: UnsafeRawBufferPointer) -> [RouteLocation] {
        var s = JSONScanner(token)
        var points: [RouteLocation]? = []
        guard (try? parse(&s, collecting: &points)) != nil else { return [] }
        return points ?? []
    }

    /// Parses one point object.
    private static func parsePoint(_ s: inout JSONScanner, _ index: Int) throws -> RouteLocation {
        func bad(_ reason: String) -> FieldError { FieldError(field: "locations", reason: "point \(index): \(reason)") }
        guard s.peek() == 0x7B else { throw bad("must be an object") }
        s.position += 1
        var time: Timestamp?
        var latitude: Double?
        var longitude: Double?
        var optional: [Double?] = Array(repeating: nil, count: optionalKeys.count)
        func number() throws -> Double {
            guard let c = s.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw bad("values other than time must be numbers") }
            let token = try s.number().range
            guard let value = s.doubleValue(token) else { throw bad("values other than time must be numbers") }
            return value
        }
        if s.peek() != 0x7D {
            while true {
                guard s.peek() == 0x22 else { throw bad("keys must be strings") }
                let key = try s.string().range
                try s.expect(0x3A, "':'")
                if s.equals(key, "\"time\"") {
                    guard time == nil else { throw bad("time appears twice") }
                    guard s.peek() == 0x22 else { throw bad("time must be an ISO 8601 instant") }
                    let token = try s.string().range
                    guard let instant = Timestamp(utf8: UnsafeRawBufferPointer(rebasing: s.bytes[token.lowerBound + 1..<token.upperBound - 1])) else {
                        throw bad("time is not an ISO 8601 instant with Z or an offset")
                    }
                    time = instant
                } else if s.equals(key, "\"lat\"") {
                    guard latitude == nil else { throw bad("lat appears twice") }
                    let value = try number()
                    guard abs(value) <= 90 else { throw bad("lat must be within ±90 degrees") }
                    latitude = value
                } else if s.equals(key, "\"lon\"") {
                    guard longitude == nil else { throw bad("lon appears twice") }
                    let value = try number()
                    guard abs(value) <= 180 else { throw bad("lon must be within ±180 degrees") }
                    longitude = value
                } else if let k = optionalKeys.firstIndex(where: { s.equals(key, $0) }) {
                    guard optional[k] == nil else { throw bad("a key appears twice") }
                    optional[k] = try number()
                } else {
                    throw bad("unknown key (time, lat, lon, alt, speed, course, hAcc, vAcc)")
                }
                guard let next = s.peek() else { throw s.error("expected ',' or '}'") }
                s.position += 1
                if next == 0x7D { break }
                guard next == 0x2C else { throw s.error("expected ',' or '}'") }
            }
        } else {
            s.position += 1
        }
        guard let time else { throw bad("time is required") }
        guard let latitude, let longitude else { throw bad("lat and lon are required") }
        return RouteLocation(
            time: time, latitude: latitude, longitude: longitude, altitude: optional[0], speed: optional[1], course: optional[2],
            horizontalAccuracy: optional[3], verticalAccuracy: optional[4])
    }
}
