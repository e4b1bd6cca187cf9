/// Writes JSON text for values the tool builds itself (the `add` and `delete` commands).
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number as JSON: an integer without a fraction when it is one (below
    /// 10^15), else Swift's shortest form that reads back as the same `Double`.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A command-line value as JSON: a number or boolean when it reads as one, else a string.
    public static func scalar(_ text: String) -> String {
        if text == "true" || text == "false" || isNumber(text) { return text }
        return string(text)
    }

    /// Whether `text` is exactly a finite number in JSON's grammar (RFC 8259 §6), as the
    /// event parser reads it: no sign but `-`, no leading zeros, digits on both sides of
    /// a `.`, no blanks.
    package static func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else { return false }
            var scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
            guard (try? scanner.number()) != nil else { return false }
            return scanner.position == bytes.count
        }
    }
}
