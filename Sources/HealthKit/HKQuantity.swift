#if !canImport(Darwin)
internal import HealthLog

/// An amount in a unit, as HealthKit's `HKQuantity`.
public final class HKQuantity: NSObject, @unchecked Sendable {
    /// The value in ``unit``.
    let value: Double
    /// The unit the quantity was made in.
    let unit: HKUnit

    /// `value` in `unit`.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
    }

    /// Whether the quantity converts to `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        guard let mine = self.unit.healthUnit, let other = unit.healthUnit else { return self.unit == unit }
        return mine.isCompatible(with: other)
    }

    /// The value in `unit`. As in HealthKit, asking for an incompatible unit is a
    /// programming error: it traps, naming both units.
    public func doubleValue(for unit: HKUnit) -> Double {
        if unit == self.unit { return value }
        guard let mine = self.unit.healthUnit, let other = unit.healthUnit, let converted = try? mine.convert(value, to: other) else {
            preconditionFailure("HKQuantity: \(self.unit.unitString) does not convert to \(unit.unitString)")
        }
        return converted
    }

    /// The order of this quantity and `quantity` (which must be compatible).
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        let other = quantity.doubleValue(for: unit)
        return value < other ? .orderedAscending : value > other ? .orderedDescending : .orderedSame
    }

    /// Equal objects hash alike.
    public override var hash: Int { value.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQuantity, `is`(compatibleWith: other.unit) else { return false }
        return compare(other) == .orderedSame
    }
    /// A description, for logs.
    public override var description: String { "\(value) \(unit.unitString)" }

    /// The quantity as healthlog stores it.
    var stored: Quantity { Quantity(value, unit.unitString) }
}
#endif
