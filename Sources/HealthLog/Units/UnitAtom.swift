/// The named units HealthKit's unit strings are built from (`g`, `m`, `L`, `kcal`, `mmHg`,
/// `count`, …), each with its dimension and its size in base units, and the SI prefixes
/// that combine with some of them.
struct UnitAtom {
    /// The dimension.
    var dimension: UnitDimension
    /// The size of one unit in base units is `factor × 10^decimalExponent`; keeping the
    /// power of ten apart lets a conversion between prefixed units divide or multiply by an
    /// exact power of ten (1500 g is 1.5 kg, not 1.5000000000000002).
    var factor: Double
    /// See ``factor``.
    var decimalExponent: Int = 0
    /// The base units of a temperature at 0 in this unit (`degC`: 273.15 K); 0 for others.
    var offset: Double = 0
    /// Whether SI prefixes combine with it (`kg`, `mL`, `ms`, `kcal`).
    var isPrefixable = false

    private static let energy = UnitDimension.mass * UnitDimension.length.raised(to: 2) * UnitDimension.time.raised(to: -2)
    private static let pressure = UnitDimension.mass * UnitDimension.length.raised(to: -1) * UnitDimension.time.raised(to: -2)
    private static let power = energy * UnitDimension.time.raised(to: -1)
    private static let volume = UnitDimension.length.raised(to: 3)

    /// The units by symbol, as HealthKit spells them (base units: gram, metre, second,
    /// kelvin, mole, ampere).
    static let table: [String: UnitAtom] = [
        "count": UnitAtom(dimension: .none, factor: 1),
        "%": UnitAtom(dimension: .base(6), factor: 1),
        "dBASPL": UnitAtom(dimension: .base(7), factor: 1),
        "dBHL": UnitAtom(dimension: .base(8), factor: 1),
        "IU": UnitAtom(dimension: .base(9), factor: 1),
        "appleEffortScore": UnitAtom(dimension: .base(10), factor: 1),
        "g": UnitAtom(dimension: .mass, factor: 1, isPrefixable: true),
        "oz": UnitAtom(dimension: .mass, factor: 28.349523125),
        "lb": UnitAtom(dimension: .mass, factor: 453.59237),
        "st": UnitAtom(dimension: .mass, factor: 6350.29318),
        "m": UnitAtom(dimension: .length, factor: 1, isPrefixable: true),
        "in": UnitAtom(dimension: .length, factor: 254, decimalExponent: -4),
        "ft": UnitAtom(dimension: .length, factor: 3048, decimalExponent: -4),
        "yd": UnitAtom(dimension: .length, factor: 9144, decimalExponent: -4),
        "mi": UnitAtom(dimension: .length, factor: 1609.344),
        "L": UnitAtom(dimension: volume, factor: 1, decimalExponent: -3, isPrefixable: true),
        "fl_oz_us": UnitAtom(dimension: volume, factor: 29.5735295625, decimalExponent: -6),
        "fl_oz_imp": UnitAtom(dimension: volume, factor: 28.4130625, decimalExponent: -6),
        "cup_us": UnitAtom(dimension: volume, factor: 236.5882365, decimalExponent: -6),
        "cup_imp": UnitAtom(dimension: volume, factor: 284.130625, decimalExponent: -6),
        "pt_us": UnitAtom(dimension: volume, factor: 473.176473, decimalExponent: -6),
        "pt_imp": UnitAtom(dimension: volume, factor: 568.26125, decimalExponent: -6),
        "s": UnitAtom(dimension: .time, factor: 1, isPrefixable: true),
        "min": UnitAtom(dimension: .time, factor: 60),
        "hr": UnitAtom(dimension: .time, factor: 3600),
        "d": UnitAtom(dimension: .time, factor: 86400),
        "Hz": UnitAtom(dimension: UnitDimension.time.raised(to: -1), factor: 1, isPrefixable: true),
        "J": UnitAtom(dimension: energy, factor: 1, decimalExponent: 3, isPrefixable: true),
        "cal": UnitAtom(dimension: energy, factor: 4.184, decimalExponent: 3, isPrefixable: true),
        "Cal": UnitAtom(dimension: energy, factor: 4184, decimalExponent: 3),
        "W": UnitAtom(dimension: power, factor: 1, decimalExponent: 3, isPrefixable: true),
        "Pa": UnitAtom(dimension: pressure, factor: 1, decimalExponent: 3, isPrefixable: true),
        "mmHg": UnitAtom(dimension: pressure, factor: 133.322387415, decimalExponent: 3),
        "cmAq": UnitAtom(dimension: pressure, factor: 98.0665, decimalExponent: 3),
        "atm": UnitAtom(dimension: pressure, factor: 101325, decimalExponent: 3),
        "inHg": UnitAtom(dimension: pressure, factor: 3386.389, decimalExponent: 3),
        "K": UnitAtom(dimension: .temperature, factor: 1, isPrefixable: true),
        "degC": UnitAtom(dimension: .temperature, factor: 1, offset: 273.15),
        "degF": UnitAtom(dimension: .temperature, factor: 5.0 / 9.0, offset: 273.15 - 32 * 5.0 / 9.0),
        "mol": UnitAtom(dimension: .amount, factor: 1, isPrefixable: true),
        "A": UnitAtom(dimension: .current, factor: 1, isPrefixable: true),
        "V": UnitAtom(dimension: power * UnitDimension.current.raised(to: -1), factor: 1, decimalExponent: 3, isPrefixable: true),
        "S": UnitAtom(
            dimension: UnitDimension.current.raised(to: 2) * UnitDimension.time.raised(to: 3) * UnitDimension.mass.raised(to: -1)
                * UnitDimension.length.raised(to: -2),
            factor: 1, decimalExponent: -3, isPrefixable: true),
    ]

    /// The SI prefixes HealthKit accepts, longest first, with their powers of ten (`mc` is
    /// how exports write micro, as in `mcg`).
    static let prefixes: [(symbol: String, exponent: Int)] = [
        ("da", 1), ("mc", -6), ("p", -12), ("n", -9), ("µ", -6), ("μ", -6), ("m", -3), ("c", -2), ("d", -1), ("h", 2), ("k", 3),
        ("M", 6), ("G", 9), ("T", 12),
    ]

    /// The unit a symbol names: a unit of the table, or a prefix and a prefixable unit
    /// (`kg`, `mL`, `µS`); a whole symbol is tried first, so `min` is a minute and `mi` a
    /// mile. `nil` for an unknown symbol.
    static func named(_ symbol: String) -> UnitAtom? {
        if let atom = table[symbol] { return atom }
        for prefix in prefixes where symbol.hasPrefix(prefix.symbol) {
            guard var atom = table[String(symbol.dropFirst(prefix.symbol.count))], atom.isPrefixable else { continue }
            atom.decimalExponent += prefix.exponent
            return atom
        }
        return nil
    }
}
