/// Reads the members of objects the event parser has already validated: `metadata`
/// (string, number or boolean values) and `totals` (quantities by name).
enum JSONObjectReader {
    /// The entries of a validated `metadata` object token.
    static func entries(_ object: UnsafeRawBufferPointer) -> [EventRecord.MetadataEntry] {
        var s = JSONScanner(object)
        var out: [EventRecord.MetadataEntry] = []
        forEachMember(&s) { key, s in
            let value: MetadataValue
            let text: String
            switch s.peek() {
            case .some(0x22):
                guard let token = try? s.string().range else { return false }
                text = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: object[token]))
                value = .string(text)
            case .some(0x74), .some(0x66):
                guard let flag = try? s.boolean() else { return false }
                text = flag ? "true" : "false"
                value = .bool(flag)
            default:
                guard let token = try? s.number().range, let number = s.doubleValue(token) else { return false }
                text = String(decoding: UnsafeRawBufferPointer(rebasing: object[token]), as: UTF8.self)
                value = .number(number)
            }
            out.append(EventRecord.MetadataEntry(key: key, value: value, text: text))
            return true
        }
        return out
    }

    /// The quantities of a validated `totals` object token.
    static func totals(_ object: UnsafeRawBufferPointer) -> [String: Quantity] {
        var s = JSONScanner(object)
        var out: [String: Quantity] = [:]
        forEachMember(&s) { name, s in
            var value: Double?
            var unit: String?
            let nested = forEachMember(&s) { field, s in
                if field == "value" {
                    guard let token = try? s.number().range else { return false }
                    value = s.doubleValue(token)
                } else {
                    guard let token = try? s.string().range else { return false }
                    unit = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: object[token]))
                }
                return true
            }
            if let value, let unit { out[name] = Quantity(value, unit) }
            return nested
        }
        return out
    }

    /// Calls `body` with each member's decoded key, the scanner at its value; `body`
    /// consumes the value and returns `false` to stop. Returns whether the object was read
    /// to its end.
    @discardableResult
    private static func forEachMember(_ s: inout JSONScanner, _ body: (String, inout JSONScanner) -> Bool) -> Bool {
        guard s.peek() == 0x7B else { return false }
        s.position += 1
        if s.peek() == 0x7D {
            s.position += 1
            return true
        }
        while true {
            guard let key = try? s.string().range, (try? s.expect(0x3A, "':'")) != nil else { return false }
            let name = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: s.bytes[key]))
            guard body(name, &s) else { return false }
            guard let next = s.peek() else { return false }
            s.position += 1
            if next == 0x7D { return true }
            guard next == 0x2C else { return false }
        }
    }
}
