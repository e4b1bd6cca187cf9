/// A running sum of doubles that prints as the sum of the decimals it was given.
///
/// Two steps keep binary noise (`6.7333300000000005`) out of sums:
/// - Neumaier's compensation (an improved Kahan summation): the low-order bits each
///   addition loses are kept and added back at the end, so the result is the sum of the
///   doubles, correctly rounded, however many values there are.
/// - The values are decimals as recorded (`1.23333`, `72.5`), whose exact sum has no more
///   fraction digits than the longest of them: the sum is rounded to that many digits (up
///   to ``maximumDecimals``), which turns `0.1 + 0.2` into the double closest to `0.3`, and
///   Swift's shortest round-trip printing then writes `0.3`.
struct CompensatedSum: Sendable {
    /// The most fraction digits a value may have for the sum to be rounded to them;
    /// beyond it (or for values with no short decimal form) the sum is left as computed.
    static let maximumDecimals = 9

    /// 10^0 through 10^``maximumDecimals``.
    private static let powers: [Double] = (0...maximumDecimals).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }

    /// The plain running sum.
    private var sum = 0.0
    /// The low-order bits the additions lost.
    private var compensation = 0.0
    /// The most fraction digits among the values so far; `nil` once one has no short form.
    private var decimals: Int? = 0

    /// An empty sum (zero).
    init() {}

    /// Adds `value`.
    mutating func add(_ value: Double) {
        let t = sum + value
        if abs(sum) >= abs(value) {
            compensation += (sum - t) + value
        } else {
            compensation += (value - t) + sum
        }
        sum = t
        if let known = decimals, Self.needsMoreThan(known, value) {
            decimals = Self.decimals(of: value).map { max($0, known) }
        }
    }

    /// The sum, rounded to the values' decimals.
    var value: Double {
        let raw = sum + compensation
        guard let decimals else { return raw }
        let scale = Self.powers[decimals]
        let scaled = raw * scale
        guard abs(scaled) < 9.0e15 else { return raw }
        return scaled.rounded() / scale
    }

    /// Whether `value` has more than `k` fraction digits.
    private static func needsMoreThan(_ k: Int, _ value: Double) -> Bool {
        !isWhole(value * powers[k])
    }

    /// The fewest fraction digits that write `value` (within the double's precision), or
    /// `nil` when more than ``maximumDecimals`` are needed.
    private static func decimals(of value: Double) -> Int? {
        (0...maximumDecimals).first { isWhole(value * powers[$0]) }
    }

    /// Whether `x` is an integer up to the rounding of the multiplication that made it.
    private static func isWhole(_ x: Double) -> Bool {
        guard abs(x) < 9.0e15 else { return false }
        return abs(x - x.rounded()) <= abs(x) * 4e-16 + 1e-300
    }
}
