/// What a unit measures, as powers of base quantities: mass, length, time, temperature,
/// amount of substance and electric current (SI's), plus the quantities HealthKit keeps
/// apart from them and from each other: percent, sound pressure level (`dBASPL`), hearing
/// level (`dBHL`), international units (`IU`) and Apple's effort score. Counts are
/// dimensionless. Two units convert into each other exactly when their dimensions are
/// equal.
public struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// The base quantities, in the order of ``exponents``.
    static let names = ["g", "m", "s", "K", "mol", "A", "%", "dBASPL", "dBHL", "IU", "appleEffortScore"]

    /// The power of each base quantity, in the order of ``names``.
    var exponents: [Int8]

    /// A dimensionless quantity (a count).
    static let none = UnitDimension(exponents: Array(repeating: 0, count: names.count))

    /// The base quantity at `index` in ``names``, to the first power.
    static func base(_ index: Int) -> UnitDimension {
        var d = none
        d.exponents[index] = 1
        return d
    }

    /// Mass.
    static let mass = base(0)
    /// Length.
    static let length = base(1)
    /// Time.
    static let time = base(2)
    /// Temperature.
    static let temperature = base(3)
    /// Amount of substance.
    static let amount = base(4)
    /// Electric current.
    static let current = base(5)

    /// The product of two dimensions.
    static func * (a: UnitDimension, b: UnitDimension) -> UnitDimension {
        UnitDimension(exponents: zip(a.exponents, b.exponents).map { $0 + $1 })
    }

    /// The dimension raised to `power`.
    func raised(to power: Int) -> UnitDimension {
        UnitDimension(exponents: exponents.map { $0 * Int8(clamping: power) })
    }

    /// Whether the dimension is that of a plain temperature (no other quantity), the only
    /// kind whose units have an offset (`degC`, `degF`).
    var isTemperature: Bool { self == Self.temperature }

    /// The dimension in base units, e.g. `g·m^2·s^-2` for energy, `count` for none.
    public var description: String {
        let parts = zip(Self.names, exponents).compactMap { name, power -> String? in
            power == 0 ? nil : power == 1 ? name : "\(name)^\(power)"
        }
        return parts.isEmpty ? "count" : parts.joined(separator: "·")
    }
}
