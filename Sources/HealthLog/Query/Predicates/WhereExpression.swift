/// Parses the command line's `--where` expressions: `value OP NUMBER [UNIT]`, with OP one
/// of `<`, `<=`, `>`, `>=`, `==`, `!=`, blanks optional (`value>100`, `value >= 7.5`,
/// `value != -1e3`, `value > 100 lb`). Without a unit, `value` is the quantity in the
/// sample's own unit; with one (a HealthKit unit string, ``HealthUnit``), the sample's
/// value converted to it, and samples in units that do not convert do not match.
package enum WhereExpression {
    /// The predicate `text` stands for; throws ``HealthLogError/Code/badUsage`` naming the
    /// bad token and its column.
    package static func parse(_ text: String) throws -> QueryPredicate {
        let chars = Array(text.unicodeScalars)
        var i = 0
        func skipBlanks() { while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 } }
        func fail(_ at: Int, _ reason: String) -> HealthLogError {
            var end = at
            while end < chars.count, chars[end] != " " { end += 1 }
            let token = at < chars.count ? String(String.UnicodeScalarView(chars[at..<max(end, at + 1)])) : "end of expression"
            return HealthLogError(.badUsage, "--where '\(text)': \(reason) at column \(at + 1) ('\(token)'); expected 'value OP NUMBER [UNIT]' with OP one of < <= > >= == !=")
        }
        skipBlanks()
        let fieldStart = i
        while i < chars.count, chars[i].properties.isAlphabetic { i += 1 }
        let field = String(String.UnicodeScalarView(chars[fieldStart..<i]))
        guard field == "value" else { throw fail(fieldStart, field.isEmpty ? "expected a field" : "unknown field") }
        skipBlanks()
        let opStart = i
        while i < chars.count, "<>=!".unicodeScalars.contains(chars[i]) { i += 1 }
        guard let op = ComparisonOperator(rawValue: String(String.UnicodeScalarView(chars[opStart..<i]))) else {
            throw fail(opStart, opStart == i ? "expected a comparison" : "unknown comparison")
        }
        skipBlanks()
        let numberStart = i
        while i < chars.count, chars[i] == "-" || chars[i] == "+" || chars[i] == "." || chars[i].properties.numericType != nil
            || ((chars[i] == "e" || chars[i] == "E") && i + 1 < chars.count && (chars[i + 1] == "-" || chars[i + 1] == "+" || chars[i + 1].properties.numericType != nil))
        {
            i += 1
        }
        let numberText = String(String.UnicodeScalarView(chars[numberStart..<i]))
        guard JSONText.isNumber(numberText), let number = Double(numberText) else {
            while i < chars.count, chars[i] != " ", chars[i] != "\t" { i += 1 }
            throw fail(numberStart, numberText.isEmpty && numberStart == chars.count ? "expected a number" : "not a number")
        }
        skipBlanks()
        guard i < chars.count else { return .quantity(op, number) }
        let unitStart = i
        while i < chars.count, chars[i] != " ", chars[i] != "\t" { i += 1 }
        let unitText = String(String.UnicodeScalarView(chars[unitStart..<i]))
        skipBlanks()
        guard i == chars.count else { throw fail(i, "unexpected text") }
        guard let unit = try? HealthUnit(unitText) else { throw fail(unitStart, "unexpected text") }
        return .quantity(op, number, unit: unit)
    }
}
