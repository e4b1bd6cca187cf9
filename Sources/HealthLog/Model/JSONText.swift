/// Writes JSON text for values the tool builds itself (the `add` and `delete` commands).
package enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    package static func string(_ text: String) -> String {
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

    /// A finite number as JSON: an integer without a fraction when it is one (below 2^53,
    /// where Swift would write `1000000000000000.0`), else Swift's shortest form that reads
    /// back as the same `Double`.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }
}
