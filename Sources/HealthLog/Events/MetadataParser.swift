/// Parses the `metadata` object of an event line: string keys (no repeats), values that
/// are strings, numbers or booleans; picks out the sync identifier and version.
enum MetadataParser {
    /// The key of HealthKit's sync identifier.
    static let syncIdentifierKey: StaticString = "\"HKMetadataKeySyncIdentifier\""
    /// The key of HealthKit's sync version.
    static let syncVersionKey: StaticString = "\"HKMetadataKeySyncVersion\""

    /// Parses the object at the scanner's position into `event.metadata` and the sync fields.
    static func parse(_ s: inout JSONScanner, into event: inout ParsedEvent) throws {
        guard s.peek() == 0x7B else { throw FieldError(field: "metadata", reason: "must be an object") }
        let start = s.position
        s.position += 1
        var keys = MetadataKeys()
        if s.peek() == 0x7D {
            s.position += 1
            event.metadata = start..<s.position
            return
        }
        while true {
            guard s.peek() == 0x22 else { throw FieldError(field: "metadata", reason: "keys must be strings") }
            let key = try s.string().range
            let keyBytes = s.bytes[key]
            guard keys.insert(key, of: s.bytes) else {
                throw FieldError(field: "metadata", reason: "key \(String(decoding: UnsafeRawBufferPointer(rebasing: keyBytes), as: UTF8.self)) appears twice")
            }
            try s.expect(0x3A, "':' after a metadata key")
            let value: Range<Int>
            var number: (range: Range<Int>, isInteger: Bool)?
            switch s.peek() {
            case .some(0x22): value = try s.string().range
            case .some(0x2D), .some(0x30...0x39):
                number = try s.number()
                value = number!.range
            case .some(0x74), .some(0x66):
                let at = s.position
                _ = try s.boolean()
                value = at..<s.position
            default:
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: keyBytes), as: UTF8.self)
                throw FieldError(field: "metadata", reason: "value of \(name) must be a string, number or boolean")
            }
            if s.equals(key, syncIdentifierKey) {
                guard s.bytes[value.lowerBound] == 0x22 else {
                    throw FieldError(field: "metadata", reason: "HKMetadataKeySyncIdentifier must be a string")
                }
                event.syncIdentifier = value
            } else if s.equals(key, syncVersionKey) {
                event.syncVersionToken = value
                event.syncVersion = syncVersion(s, value, number)
                guard event.syncVersion != nil else {
                    throw FieldError(field: "metadata", reason: "HKMetadataKeySyncVersion must be an integer")
                }
            }
            guard let next = s.peek() else { throw s.error("expected ',' or '}'") }
            s.position += 1
            if next == 0x7D { break }
            guard next == 0x2C else { throw s.error("expected ',' or '}'") }
        }
        event.metadata = start..<s.position
    }

    /// The sync version as an integer: a JSON integer, or a string of digits (as Apple's
    /// export writes metadata).
    private static func syncVersion(_ s: JSONScanner, _ value: Range<Int>, _ number: (range: Range<Int>, isInteger: Bool)?) -> Int64? {
        let digits: Range<Int>
        if let number {
            guard number.isInteger else { return nil }
            digits = number.range
        } else if s.bytes[value.lowerBound] == 0x22 {
            digits = value.lowerBound + 1..<value.upperBound - 1
        } else {
            return nil
        }
        return Int64(String(decoding: UnsafeRawBufferPointer(rebasing: s.bytes[digits]), as: UTF8.self))
    }
}

/// Parses a workout's `totals`: an object whose values are `{"value": NUMBER, "unit": STRING}`.
enum TotalsParser {
    /// Returns the token range of the whole object.
    static func parse(_ s: inout JSONScanner) throws -> Range<Int> {
        guard s.peek() == 0x7B else { throw FieldError(field: "totals", reason: "must be an object") }
        let start = s.position
        s.position += 1
        if s.peek() == 0x7D {
            s.position += 1
            return start..<s.position
        }
        while true {
            guard s.peek() == 0x22 else { throw FieldError(field: "totals", reason: "keys must be strings") }
            _ = try s.string()
            try s.expect(0x3A, "':'")
            try parseQuantity(&s)
            guard let next = s.peek() else { throw s.error("expected ',' or '}'") }
            s.position += 1
            if next == 0x7D { return start..<s.position }
            guard next == 0x2C else { throw s.error("expected ',' or '}'") }
        }
    }

    /// Parses `{"value": NUMBER, "unit": STRING}` in either order.
    private static func parseQuantity(_ s: inout JSONScanner) throws {
        let reason = "each total must be {\"value\": number, \"unit\": string}"
        guard s.peek() == 0x7B else { throw FieldError(field: "totals", reason: reason) }
        s.position += 1
        var sawValue = false
        var sawUnit = false
        while true {
            guard s.peek() == 0x22 else { throw FieldError(field: "totals", reason: reason) }
            let key = try s.string().range
            try s.expect(0x3A, "':'")
            if s.equals(key, "\"value\""), !sawValue, let c = s.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) {
                _ = try s.number()
                sawValue = true
            } else if s.equals(key, "\"unit\""), !sawUnit, s.peek() == 0x22 {
                _ = try s.string()
                sawUnit = true
            } else {
                throw FieldError(field: "totals", reason: reason)
            }
            guard let next = s.peek() else { throw s.error("expected ',' or '}'") }
            s.position += 1
            if next == 0x7D { break }
            guard next == 0x2C else { throw s.error("expected ',' or '}'") }
        }
        guard sawValue, sawUnit else { throw FieldError(field: "totals", reason: reason) }
    }
}
