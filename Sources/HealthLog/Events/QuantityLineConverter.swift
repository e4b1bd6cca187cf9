/// Rewrites stored lines so every quantity sample is in one unit (`export --unit`): the
/// value converted (to ``PrintedNumber/conversionDigits`` significant digits) and the unit
/// replaced; other lines unchanged. As HealthKit's
/// `doubleValue(for:)` raises for an incompatible unit, a quantity sample whose unit does
/// not convert is refused, never passed on in its own unit.
package struct QuantityLineConverter {
    /// The unit every quantity sample is written in.
    package let unit: HealthUnit
    private let unitToken: [UInt8]
    private var converters: [String: Result<@Sendable (Double) -> Double, HealthLogError>] = [:]

    /// A converter to `unit`.
    package init(unit: HealthUnit) {
        self.unit = unit
        unitToken = Array(JSONText.string(unit.text).utf8)
    }

    /// The line (a stored line, newline included) in ``unit``: `nil` when it needs no
    /// change (not a quantity sample, or already in the unit's spelling).
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a quantity sample whose unit does not
    ///   convert to ``unit``, naming its type and unit.
    package mutating func convert(_ line: UnsafeRawBufferPointer) throws -> [UInt8]? {
        let body = line.last == 10 ? UnsafeRawBufferPointer(rebasing: line[..<(line.count - 1)]) : line
        guard let event = try? EventLineParser.parse(body), !event.isDelete, event.kind == .quantity,
            case .number(let valueRange, _) = event.value, let unitRange = event.unit, let typeRange = event.type
        else { return nil }
        let text = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: body[unitRange]))
        if text == unit.text { return nil }
        let converter: Result<@Sendable (Double) -> Double, HealthLogError>
        if let known = converters[text] {
            converter = known
        } else {
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: body[typeRange]), as: UTF8.self)
            if let own = try? HealthUnit(text), own.isCompatible(with: unit) {
                converter = .success(own.converter(to: unit))
            } else {
                converter = .failure(HealthLogError(.badUsage, "a sample of \(type) is in '\(text)', which does not convert to '\(unit)': healthlog never mixes units"))
            }
            converters[text] = converter
        }
        guard let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: body[valueRange]), as: UTF8.self)) else { return nil }
        let converted = PrintedNumber.converted(try converter.get()(value))
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 16)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[..<valueRange.lowerBound]))
        out.append(contentsOf: JSONText.number(converted).utf8)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[valueRange.upperBound..<unitRange.lowerBound]))
        out.append(contentsOf: unitToken)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[unitRange.upperBound...]))
        return out
    }
}
