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

    /// A command-line value as JSON: a number or boolean when it reads as one, else a string.
    public static func scalar(_ text: String) -> String {
        if text == "true" || text == "false" { return text }
        if let number = Double(text), number.isFinite, text.first != "+", !text.hasPrefix("."), !text.hasSuffix("."),
            text.allSatisfy({ "0123456789-.eE+".contains($0) }), !(text.hasPrefix("0") && text.count > 1 && !text.hasPrefix("0."))
        {
            return text
        }
        return string(text)
    }
}
