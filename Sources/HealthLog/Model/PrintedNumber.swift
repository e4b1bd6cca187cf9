/// The precision of the numbers healthlog computes and prints (stored values are always
/// written as recorded):
///
/// - A value converted to another unit keeps ``conversionDigits`` significant digits, the
///   most a double always holds: `1.2167 count/s` is `73.0002 count/min`, not
///   `73.00019999999999`.
/// - A figure computed from many values (a sum, a mean, seconds covered) keeps
///   ``figureDigits`` significant digits, as C's `%g` does, but never rounds away whole
///   units: prorated steps print `21627.7`, a month's `1234567.8` prints `1234568`.
///
/// Either is then written in Swift's shortest form that reads back as the same double.
package enum PrintedNumber {
    /// The significant digits of a converted value.
    package static let conversionDigits = 15
    /// The significant digits of a computed figure (more when its whole part is longer).
    package static let figureDigits = 6

    /// `value` in another unit, rounded to ``conversionDigits`` significant digits.
    package static func converted(_ value: Double) -> Double {
        rounded(value, significantDigits: conversionDigits)
    }

    /// A computed figure rounded to ``figureDigits`` significant digits, or to a whole
    /// number when its whole part has more digits (at most ``conversionDigits``).
    package static func figure(_ value: Double) -> Double {
        var whole = 0
        var magnitude = value.magnitude
        while magnitude >= 1, whole < conversionDigits {
            magnitude /= 10
            whole += 1
        }
        return rounded(value, significantDigits: max(figureDigits, whole))
    }

    /// `value` rounded half away from zero to `digits` (1 to 17) significant decimal digits
    /// of its shortest round-trip form; infinities, NaN and zero unchanged.
    package static func rounded(_ value: Double, significantDigits digits: Int) -> Double {
        guard value.isFinite, value != 0 else { return value }
        let text = String(value.magnitude)
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let point = mantissa.firstIndex(of: ".")
        let whole = point.map { mantissa[..<$0] } ?? mantissa
        let fraction = point.map { mantissa[mantissa.index(after: $0)...] } ?? ""
        var figures = (whole + fraction).utf8.map { Int($0) - 48 }
        var pointAfter = whole.count + exponent
        while figures.count > 1, figures[0] == 0 {
            figures.removeFirst()
            pointAfter -= 1
        }
        guard figures.count > digits else { return value }
        let up = figures[digits] >= 5
        figures.removeLast(figures.count - digits)
        if up {
            var k = digits - 1
            while k >= 0 {
                figures[k] += 1
                if figures[k] < 10 { break }
                figures[k] = 0
                k -= 1
            }
            if k < 0 {
                figures.insert(1, at: 0)
                pointAfter += 1
            }
        }
        let rounded = Double("0." + figures.map(String.init).joined() + "e\(pointAfter)") ?? value.magnitude
        return value < 0 ? -rounded : rounded
    }
}
