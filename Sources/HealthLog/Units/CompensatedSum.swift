/// A running sum of doubles with Neumaier's compensation: the rounding error of each
/// addition is kept and added back at the end, so a sum of many values carries no binary
/// noise a plain loop piles up (`0.1 + 0.2 + …`), and adding values of very different
/// sizes loses nothing of the small ones.
public struct CompensatedSum: Sendable, Hashable {
    private var sum = 0.0
    private var compensation = 0.0

    /// An empty sum (0).
    public init() {}

    /// Adds `value`.
    public mutating func add(_ value: Double) {
        let t = sum + value
        if abs(sum) >= abs(value) {
            compensation += (sum - t) + value
        } else {
            compensation += (value - t) + sum
        }
        sum = t
    }

    /// The sum so far.
    public var value: Double { sum + compensation }
}
