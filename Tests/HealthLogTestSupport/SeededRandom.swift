/// SplitMix64: a tiny deterministic generator, so every seed replays the same run.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public var state: UInt64

    /// A generator started at `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// `true` with `percent` per cent probability.
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One of `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}
