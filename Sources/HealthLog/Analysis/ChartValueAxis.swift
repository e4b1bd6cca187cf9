/// The value axis of a chart: round ticks (1, 2 or 5 times a power of ten) printed from
/// integers, so a tick reads `0.6`, never `0.6000000000000001`.
struct ChartValueAxis {
    /// The axis's lowest value (the first tick).
    let low: Double
    /// The axis's highest value (the last tick).
    let high: Double
    /// The ticks and their text.
    let ticks: [(value: Double, text: String)]

    /// An axis covering `[low, high]` with about five ticks; `integral` keeps the step at 1
    /// or more (counts of samples).
    init(covering low: Double, _ high: Double, integral: Bool) {
        var lo = low
        var hi = high
        if hi <= lo { hi = lo + (integral ? 1 : Swift.max(abs(lo) * 0.1, 1)) }
        let raw = (hi - lo) / 5
        var exponent = Int((raw.magnitude).log10Floor)
        var mantissa = 1
        let candidates = [1, 2, 5, 10]
        let scale = Self.power(exponent)
        mantissa = candidates.first { Double($0) * scale >= raw } ?? 10
        if mantissa == 10 {
            mantissa = 1
            exponent += 1
        }
        if integral, exponent < 0 {
            mantissa = 1
            exponent = 0
        }
        let step = Double(mantissa) * Self.power(exponent)
        let first = Int64((lo / step).rounded(.down))
        let last = Int64((hi / step).rounded(.up))
        var ticks: [(Double, String)] = []
        for k in first...Swift.max(last, first + 1) {
            let n = k * Int64(mantissa)
            ticks.append((Double(n) * Self.power(exponent), Self.text(n, exponent)))
        }
        lo = ticks.first?.0 ?? lo
        hi = ticks.last?.0 ?? hi
        self.low = lo
        self.high = hi
        self.ticks = ticks
    }

    /// 10^`exponent`.
    private static func power(_ exponent: Int) -> Double {
        var p = 1.0
        if exponent >= 0 { for _ in 0..<exponent { p *= 10 } } else { for _ in 0..<(-exponent) { p /= 10 } }
        return p
    }

    /// `n` × 10^`exponent` written exactly, with thin grouping of thousands left out.
    static func text(_ n: Int64, _ exponent: Int) -> String {
        let negative = n < 0
        var digits = String(n.magnitude)
        if exponent >= 0 {
            if n != 0 { digits += String(repeating: "0", count: exponent) }
        } else {
            let places = -exponent
            if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
            while digits.hasSuffix("0") { digits.removeLast() }
            if digits.hasSuffix(".") { digits.removeLast() }
        }
        return (negative && digits != "0" ? "-" : "") + digits
    }
}

extension Double {
    /// ⌊log10(self)⌋ for a positive number (0 for zero).
    fileprivate var log10Floor: Double {
        guard self > 0 else { return 0 }
        var e = 0.0
        var v = self
        while v >= 10 {
            v /= 10
            e += 1
        }
        while v < 1 {
            v *= 10
            e -= 1
        }
        return e
    }
}
