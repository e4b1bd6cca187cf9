#if !canImport(Darwin)
internal import HealthLog

/// A metric prefix, as HealthKit's `HKMetricPrefix`.
public enum HKMetricPrefix: Int, Sendable {
    /// No prefix, and the prefixes from 10⁻¹² to 10¹² (and femto, 10⁻¹⁵).
    case none = 0, pico, nano, micro, milli, centi, deci, deca, hecto, kilo, mega, giga, tera, femto

    /// The prefix as unit strings write it (`mc` for micro, as HealthKit).
    var symbol: String {
        switch self {
        case .none: ""
        case .pico: "p"
        case .nano: "n"
        case .micro: "mc"
        case .milli: "m"
        case .centi: "c"
        case .deci: "d"
        case .deca: "da"
        case .hecto: "h"
        case .kilo: "k"
        case .mega: "M"
        case .giga: "G"
        case .tera: "T"
        case .femto: "f"
        }
    }
}

/// A unit, as HealthKit's `HKUnit`: over healthlog's units, spelled as HealthKit spells
/// them (`count/min`, `kg`, `mg/dL`, `mmol<180.15588000005408>/L`). Units are equal when
/// their strings are.
public final class HKUnit: NSObject, @unchecked Sendable {
    /// The unit's string, as `HKUnit(from:)` takes it.
    public let unitString: String
    /// The unit `string` spells.
    public init(from string: String) {
        unitString = string
    }

    /// The parsed unit, `nil` for a string healthlog does not read (parsed when a
    /// conversion needs it, so reading samples parses nothing).
    var healthUnit: HealthUnit? { try? HealthUnit(unitString) }

    /// Equal objects hash alike.
    public override var hash: Int { unitString.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKUnit)?.unitString == unitString }
    /// A description, for logs.
    public override var description: String { unitString }

    /// Whether this is the unit of pure numbers without a name.
    public func isNull() -> Bool { unitString.isEmpty }

    /// This unit divided by `unit`.
    public func unitDivided(by unit: HKUnit) -> HKUnit { HKUnit(from: "\(unitString)/\(Self.grouped(unit.unitString))") }
    /// This unit multiplied by `unit`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit { HKUnit(from: "\(unitString)·\(Self.grouped(unit.unitString))") }
    /// This unit raised to `power`.
    public func unitRaised(toPower power: Int) -> HKUnit { HKUnit(from: "\(Self.grouped(unitString))^\(power)") }
    /// One divided by this unit.
    public func reciprocal() -> HKUnit { HKUnit(from: "1/\(Self.grouped(unitString))") }

    /// `text`, in parentheses when it is compound.
    private static func grouped(_ text: String) -> String {
        text.contains(where: { "/·*^".contains($0) }) ? "(\(text))" : text
    }

    private static func prefixed(_ prefix: HKMetricPrefix, _ base: String) -> HKUnit { HKUnit(from: prefix.symbol + base) }

    /// `count`.
    public class func count() -> HKUnit { HKUnit(from: "count") }
    /// `%`.
    public class func percent() -> HKUnit { HKUnit(from: "%") }
    /// `s`.
    public class func second() -> HKUnit { HKUnit(from: "s") }
    /// `s` with a metric prefix.
    public class func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "s") }
    /// `min`.
    public class func minute() -> HKUnit { HKUnit(from: "min") }
    /// `hr`.
    public class func hour() -> HKUnit { HKUnit(from: "hr") }
    /// `d`.
    public class func day() -> HKUnit { HKUnit(from: "d") }
    /// `m`.
    public class func meter() -> HKUnit { HKUnit(from: "m") }
    /// `m` with a metric prefix.
    public class func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "m") }
    /// `in`.
    public class func inch() -> HKUnit { HKUnit(from: "in") }
    /// `ft`.
    public class func foot() -> HKUnit { HKUnit(from: "ft") }
    /// `yd`.
    public class func yard() -> HKUnit { HKUnit(from: "yd") }
    /// `mi`.
    public class func mile() -> HKUnit { HKUnit(from: "mi") }
    /// `g`.
    public class func gram() -> HKUnit { HKUnit(from: "g") }
    /// `g` with a metric prefix.
    public class func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "g") }
    /// `oz`.
    public class func ounce() -> HKUnit { HKUnit(from: "oz") }
    /// `lb`.
    public class func pound() -> HKUnit { HKUnit(from: "lb") }
    /// `st`.
    public class func stone() -> HKUnit { HKUnit(from: "st") }
    /// `L`.
    public class func liter() -> HKUnit { HKUnit(from: "L") }
    /// `L` with a metric prefix.
    public class func literUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "L") }
    /// `fl_oz_us`.
    public class func fluidOunceUS() -> HKUnit { HKUnit(from: "fl_oz_us") }
    /// `J`.
    public class func joule() -> HKUnit { HKUnit(from: "J") }
    /// `J` with a metric prefix.
    public class func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "J") }
    /// `kcal`.
    public class func kilocalorie() -> HKUnit { HKUnit(from: "kcal") }
    /// `Cal`.
    public class func largeCalorie() -> HKUnit { HKUnit(from: "Cal") }
    /// `cal`.
    public class func smallCalorie() -> HKUnit { HKUnit(from: "cal") }
    /// `degC`.
    public class func degreeCelsius() -> HKUnit { HKUnit(from: "degC") }
    /// `degF`.
    public class func degreeFahrenheit() -> HKUnit { HKUnit(from: "degF") }
    /// `K`.
    public class func kelvin() -> HKUnit { HKUnit(from: "K") }
    /// `mmHg`.
    public class func millimeterOfMercury() -> HKUnit { HKUnit(from: "mmHg") }
    /// `Pa`.
    public class func pascal() -> HKUnit { HKUnit(from: "Pa") }
    /// `Pa` with a metric prefix.
    public class func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "Pa") }
    /// `dBASPL`.
    public class func decibelAWeightedSoundPressureLevel() -> HKUnit { HKUnit(from: "dBASPL") }
    /// `S`.
    public class func siemen() -> HKUnit { HKUnit(from: "S") }
    /// `S` with a metric prefix.
    public class func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "S") }
    /// `W`.
    public class func watt() -> HKUnit { HKUnit(from: "W") }
    /// `W` with a metric prefix.
    public class func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "W") }
    /// `V`.
    public class func volt() -> HKUnit { HKUnit(from: "V") }
    /// `V` with a metric prefix.
    public class func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "V") }
    /// `Hz`.
    public class func hertz() -> HKUnit { HKUnit(from: "Hz") }
    /// `IU`.
    public class func internationalUnit() -> HKUnit { HKUnit(from: "IU") }
    /// `appleEffortScore`.
    public class func appleEffortScore() -> HKUnit { HKUnit(from: "appleEffortScore") }
    /// Moles with `prefix` of a substance of `molarMass` g/mol (`mmol<180.15588000005408>`).
    public class func moleUnit(with prefix: HKMetricPrefix, molarMass: Double) -> HKUnit {
        HKUnit(from: "\(prefix.symbol)mol<\(molarMass)>")
    }
}

/// The molar mass of blood glucose, g/mol.
public let HKUnitMolarMassBloodGlucose = 180.15588000005408
#endif
