/// A HealthKit unit (`HKUnit`) parsed from its string: `count/min`, `kg`, `lb`, `mg/dL`,
/// `mmol<180.15588000005408>/L`, `mL/kg·min`, `degF`, `%`, … (the grammar is in
/// `docs/exports-and-statistics.md`, "Units"). Two units are compatible when they measure the
/// same dimension; a value then converts between them as HealthKit's `doubleValue(for:)` does.
///
/// ```swift
/// let lb = try HealthUnit("lb")
/// let kg = try HealthUnit("kg")
/// try kg.convert(100, to: lb)   // 220.46226218487757
/// ```
public struct HealthUnit: Hashable, Sendable, CustomStringConvertible {
    /// The unit string as given.
    public let text: String
    /// What the unit measures.
    public let dimension: UnitDimension
    /// One unit is `factor × 10^decimalExponent` base units (plus ``offset`` for a
    /// temperature).
    let factor: Double
    /// See ``factor``.
    let decimalExponent: Int
    /// The base units (kelvin) at 0 in this unit, for plain temperatures (`degC`, `degF`).
    let offset: Double

    /// Parses a HealthKit unit string.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` naming what is not a unit.
    public init(_ text: String) throws {
        let parsed = try UnitParser.parse(text)
        self.text = text
        dimension = parsed.dimension
        factor = parsed.factor
        decimalExponent = parsed.decimalExponent
        offset = parsed.dimension.isTemperature ? parsed.offset : 0
    }

    /// Whether a value converts between the two units.
    public func isCompatible(with other: HealthUnit) -> Bool { dimension == other.dimension }

    /// `value`, in this unit, expressed in `other`. A unit converts to itself unchanged.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the units measure different things.
    public func convert(_ value: Double, to other: HealthUnit) throws -> Double {
        guard isCompatible(with: other) else {
            throw HealthLogError(.badUsage, "'\(text)' (\(dimension)) does not convert to '\(other.text)' (\(other.dimension))")
        }
        return converter(to: other)(value)
    }

    /// A function converting values from this unit to a compatible `other` (the caller has
    /// checked ``isCompatible(with:)``), computed once for many values.
    func converter(to other: HealthUnit) -> @Sendable (Double) -> Double {
        if self == other { return { $0 } }
        if text == "degC", other.text == "degF" { return { $0 * 9 / 5 + 32 } }
        if text == "degF", other.text == "degC" { return { ($0 - 32) * 5 / 9 } }
        let ratio = factor / other.factor
        let exponent = decimalExponent - other.decimalExponent
        let power = Self.powerOfTen(abs(exponent))
        let from = offset
        let to = other.offset
        if from == 0, to == 0 {
            if exponent >= 0 { return { value in value * ratio * power } }
            return { value in value * ratio / power }
        }
        let fromSize = size
        let toSize = other.size
        return { value in (value * fromSize + from - to) / toSize }
    }

    /// 10^n, exact for n ≤ 22.
    private static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }

    /// The unit string as given.
    public var description: String { text }

    /// The size of one unit in base units.
    private var size: Double {
        factor * (decimalExponent >= 0 ? Self.powerOfTen(decimalExponent) : 1 / Self.powerOfTen(-decimalExponent))
    }

    /// Units are equal when they are the same size of the same dimension, to 12
    /// significant digits (`kcal` and `Cal`).
    public static func == (a: HealthUnit, b: HealthUnit) -> Bool {
        a.dimension == b.dimension && a.offset == b.offset && abs(a.size - b.size) <= 1e-12 * max(abs(a.size), abs(b.size))
    }

    /// Hashes the dimension (equal units have equal dimensions).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(dimension)
    }
}
