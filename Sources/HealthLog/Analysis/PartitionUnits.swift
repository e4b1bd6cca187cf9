/// The one unit a partitioned export writes a type's quantities in (``PartitionedExport``):
/// the unit asked for, else the type's unit in healthlog's table of quantity types
/// (``QuantityTypeInfo/unit``, the one Apple's exports write); a type healthlog does not
/// know keeps each sample's own unit. Values are converted to
/// ``PrintedNumber/conversionDigits`` significant digits.
struct PartitionUnits {
    /// The type's full identifier.
    let type: String
    /// The unit every quantity is written in, or `nil` to keep each sample's own.
    let target: HealthUnit?
    /// Converters by the unit text samples were recorded in.
    private var converters: [String: @Sendable (Double) -> Double] = [:]

    /// The units of `type`'s rows: in `unit` when given, else in the type's own unit.
    init(type: String, unit: HealthUnit?) {
        self.type = type
        target = unit ?? QuantityTypeInfo.of(type)?.unit
    }

    /// The `value` and `unit` cells of a row in ``target``; cells without a number and unit
    /// unchanged.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a unit that does not convert to
    ///   ``target``, naming the type and both units.
    mutating func convert(value: EventTable.Cell, unit: EventTable.Cell) throws -> (value: EventTable.Cell, unit: EventTable.Cell) {
        guard let target, case .number(let number) = value, case .text(let recorded) = unit else { return (value, unit) }
        if recorded == target.text { return (value, unit) }
        let converter: @Sendable (Double) -> Double
        if let known = converters[recorded] {
            converter = known
        } else {
            guard let own = try? HealthUnit(recorded), own.isCompatible(with: target) else {
                throw HealthLogError(.badUsage, "a sample of \(type) is in '\(recorded)', which does not convert to '\(target)': healthlog never mixes units")
            }
            converter = own.converter(to: target)
            converters[recorded] = converter
        }
        guard let parsed = Double(number) else { return (value, unit) }
        return (.number(JSONText.number(PrintedNumber.converted(converter(parsed)))), .text(target.text))
    }
}
