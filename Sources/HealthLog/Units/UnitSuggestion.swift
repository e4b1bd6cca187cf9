/// The HealthKit unit meant by a symbol HealthKit does not know: a common name for it
/// (`bpm`, `lbs`, `steps`, `°C`, …), else the known symbol nearest in spelling.
enum UnitSuggestion {
    /// Common names of units, by their lowercased spelling, and the HealthKit unit each means.
    private static let aliases: [String: String] = [
        "bpm": "count/min", "beats": "count", "beat": "count", "steps": "count", "step": "count", "times": "count", "x": "count",
        "lbs": "lb", "pound": "lb", "pounds": "lb", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
        "gram": "g", "grams": "g", "kcals": "kcal", "calories": "kcal", "calorie": "kcal", "kj": "kJ",
        "percent": "%", "pct": "%", "mmhg": "mmHg", "°c": "degC", "celsius": "degC", "degc": "degC", "c": "degC",
        "°f": "degF", "fahrenheit": "degF", "degf": "degF", "f": "degF", "h": "hr", "hrs": "hr", "hour": "hr", "hours": "hr",
        "mins": "min", "minute": "min", "minutes": "min", "sec": "s", "secs": "s", "second": "s", "seconds": "s", "ml": "mL",
        "l": "L", "liter": "L", "litre": "L", "meter": "m", "meters": "m", "metre": "m", "metres": "m", "miles": "mi", "mile": "mi",
        "feet": "ft", "foot": "ft", "inch": "in", "inches": "in", "kph": "km/hr", "mph": "mi/hr",
    ]

    /// Symbols the nearest spelling is looked for among: the table's and their common
    /// prefixed forms.
    private static let known: [String] =
        UnitAtom.table.keys.sorted() + ["kg", "mg", "mcg", "km", "cm", "mm", "mL", "dL", "kcal", "kJ", "ms", "mmol", "mS", "kPa", "mV"]

    /// The unit to write instead of `symbol`, or `nil` when nothing is near enough.
    static func suggestion(for symbol: String) -> String? {
        if let alias = aliases[symbol.lowercased()] { return alias }
        if let sameLetters = known.first(where: { $0.lowercased() == symbol.lowercased() }) { return sameLetters }
        let nearest = known.map { (symbol: $0, distance: editDistance(Array(symbol.unicodeScalars), Array($0.unicodeScalars))) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= (symbol.unicodeScalars.count >= 4 ? 2 : 1) else { return nil }
        return nearest.symbol
    }

    /// The Levenshtein distance between `a` and `b`.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }
}
