#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an input line must satisfy beyond the event line's shape, checked against
/// HealthKit's table (``HealthKitTypes``) on input only — stored lines are never re-checked,
/// so a stored line these rules would refuse still reads:
///
/// - a type given short (`HeartRate`) or in another case becomes its full identifier; an
///   unknown identifier with a HealthKit prefix is accepted with a note, but one within
///   two edits of a known identifier is refused with "did you mean …" (except when
///   importing: what Apple's export names is a type, not a typo);
/// - a known quantity type's unit must be a HealthKit unit of the type's dimension, and a
///   cumulative type's value must not be negative;
/// - a workout's duration must not be negative (the line's parser already refuses a number
///   that is not finite);
/// - a known category type's value must be one of its values, and is stored as the full
///   constant name (``CategoryValues``).
///
/// ``InputChecker`` keeps what it has looked up, so a million lines of one type and unit
/// cost one lookup.
struct InputChecker {
    /// What an accepted line needs: its stored form when it differs from the input, and a
    /// note for the user.
    struct Outcome {
        /// The line to store instead of the input, when a type or value was rewritten.
        var rewritten: [UInt8]?
        /// A note (an unknown type), or `nil`.
        var note: String?
    }

    /// What is known of one type identifier as written.
    private struct TypeVerdict {
        var identifier: String
        var note: String?
        var quantity: QuantityTypeInfo?
        /// Whether the line spells the type otherwise than ``identifier``.
        var rewrites = false
    }

    /// Whether the checks are an import's (near misses accepted, units of unknown types
    /// not parsed).
    let importing: Bool
    private var types: [[UInt8]: TypeVerdict] = [:]
    private var units: [[UInt8]: Result<HealthUnit, HealthLogError>] = [:]
    /// A type looked up lately, with the unit tokens found to fit it.
    private struct RecentType {
        var bytes: [UInt8]
        var verdict: TypeVerdict
        /// Whether the type is a known cumulative quantity type (its values must not be negative).
        var isCumulative: Bool
        var fits: [[UInt8]] = []
        /// For a category type, value tokens looked up, each with its replacement (`nil`
        /// when the token is already the stored name).
        var values: [(token: [UInt8], replacement: [UInt8]?)] = []
    }

    /// The types looked up lately (at most ``recentLimit``), which the next lines most
    /// often repeat: compared in place, without building a key or hashing.
    private var recent: [RecentType] = []
    /// How many types ``recent`` keeps, and how many fitting units and category values per type.
    private static let recentLimit = 16

    /// A checker for hand input (`importing` false) or an import.
    init(importing: Bool) {
        self.importing = importing
    }

    /// Checks `event`, parsed from `line`.
    ///
    /// - Throws: ``FieldError`` naming the field at fault.
    mutating func check(_ event: ParsedEvent, line: UnsafeRawBufferPointer) throws -> Outcome {
        guard let typeRange = event.type, let kind = event.kind else { return Outcome() }
        let typeBytes = UnsafeRawBufferPointer(rebasing: line[typeRange])
        let slot: Int
        // Compared in place: the closure of `firstIndex(where:)` copied each entry, retaining its arrays.
        if let known = recent.withUnsafeBufferPointer({ recent in recent.indices.first { Self.same(recent[$0].bytes, typeBytes) } }) {
            slot = known
        } else {
            let bytes = Array(typeBytes)
            let found = try typeVerdict(event, bytes)
            if recent.count == Self.recentLimit { recent.removeFirst() }
            recent.append(RecentType(bytes: bytes, verdict: found, isCumulative: found.quantity?.style.isCumulative ?? false))
            slot = recent.count - 1
        }
        // The verdict is read in place rather than copied, which would retain its strings on every line.
        var replacements: [(Range<Int>, [UInt8])] = []
        if recent[slot].verdict.rewrites {
            replacements.append((typeRange, Array(recent[slot].verdict.identifier.utf8)))
        }
        if !event.isDelete {
            switch kind {
            case .quantity: try checkQuantity(event, line: line, slot: slot)
            case .category:
                if let replacement = try categoryValue(event, line: line, slot: slot) { replacements.append(replacement) }
            case .workout: try Self.checkDuration(event, line: line)
            default: break
            }
        }
        return Outcome(rewritten: replacements.isEmpty ? nil : Self.rewrite(line, replacements), note: recent[slot].verdict.note)
    }

    private mutating func typeVerdict(_ event: ParsedEvent, _ bytes: [UInt8]) throws -> TypeVerdict {
        if let known = types[bytes] { return known }
        let written = event.resolvedType ?? String(decoding: bytes, as: UTF8.self)
        var verdict = TypeVerdict(identifier: written)
        let matches = HealthKitTypes.matching(written)
        if matches.count == 1 {
            verdict.identifier = matches[0]
        } else if !importing, let near = HealthKitTypes.nearMiss(of: written) {
            throw FieldError(field: "type", reason: "unknown type '\(written)': did you mean \(near)?")
        } else {
            verdict.note = "type \(written) is not one healthlog knows (a newer HealthKit type?): stored as given, without checks of its units or values"
        }
        verdict.quantity = QuantityTypeInfo.of(verdict.identifier)
        verdict.rewrites = !verdict.identifier.utf8.elementsEqual(bytes)
        types[bytes] = verdict
        return verdict
    }

    /// Refuses a workout's `duration` that is negative.
    private static func checkDuration(_ event: ParsedEvent, line: UnsafeRawBufferPointer) throws {
        guard let range = event.duration, line[range.lowerBound] == 45 else { return }
        if let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)), value < 0 {
            throw FieldError(field: "duration", reason: "must not be negative")
        }
    }

    /// Checks a quantity's unit and sign; `slot` is its type's place in ``recent``.
    private mutating func checkQuantity(_ event: ParsedEvent, line: UnsafeRawBufferPointer, slot: Int) throws {
        guard let unitRange = event.unit else { return }
        if importing, recent[slot].verdict.quantity == nil { return }
        let unitBytes = UnsafeRawBufferPointer(rebasing: line[unitRange])
        let fits = recent.withUnsafeBufferPointer { recent in recent[slot].fits.contains { Self.same($0, unitBytes) } }
        if !fits {
            try checkUnit(unitBytes, line: line, unitRange: unitRange, recent[slot].verdict)
            if recent[slot].fits.count < Self.recentLimit { recent[slot].fits.append(Array(unitBytes)) }
        }
        guard recent[slot].isCumulative, case .number(let range, _) = event.value, line[range.lowerBound] == 45 else { return }
        if let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)), value < 0 {
            throw FieldError(field: "value", reason: "must not be negative: \(TypeNames.shortForm(recent[slot].verdict.identifier)) is a cumulative type")
        }
    }

    /// Checks that the unit token `unitBytes` is a HealthKit unit that fits the type.
    private mutating func checkUnit(_ unitBytes: UnsafeRawBufferPointer, line: UnsafeRawBufferPointer, unitRange: Range<Int>, _ verdict: TypeVerdict) throws {
        let parsed: Result<HealthUnit, HealthLogError>
        if let known = units[Array(unitBytes)] {
            parsed = known
        } else {
            let text = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[unitRange]))
            do {
                parsed = .success(try HealthUnit(text))
            } catch let error as HealthLogError {
                parsed = .failure(error)
            }
            units[Array(unitBytes)] = parsed
        }
        let info = verdict.quantity
        let short = TypeNames.shortForm(verdict.identifier)
        switch parsed {
        case .failure(let error):
            let expected = info.map { ": \(short) takes \($0.unit) or a unit that converts to it" } ?? ""
            throw FieldError(field: "unit", reason: error.message + expected)
        case .success(let unit):
            guard let info, !unit.isCompatible(with: info.unit) else { return }
            throw FieldError(
                field: "unit", reason: "'\(unit)' measures \(unit.dimension), but \(short) takes \(info.unit) (\(info.unit.dimension)) or a unit that converts to it")
        }
    }

    /// The replacement of a category value by its stored name, when it differs; `slot` is
    /// its type's place in ``recent``, which answers a value token looked up before (the
    /// lookup by name costs thousands of instructions).
    private mutating func categoryValue(_ event: ParsedEvent, line: UnsafeRawBufferPointer, slot: Int) throws -> (Range<Int>, [UInt8])? {
        let range: Range<Int>
        switch event.value {
        case .number(let r, _), .string(let r): range = r
        case nil: return nil
        }
        let token = UnsafeRawBufferPointer(rebasing: line[range])
        if let known = recent.withUnsafeBufferPointer({ recent in recent[slot].values.first { Self.same($0.token, token) } }) {
            return known.replacement.map { (range, $0) }
        }
        let replacement = try categoryValue(event, line: line, recent[slot].verdict.identifier)
        if recent[slot].values.count < Self.recentLimit { recent[slot].values.append((Array(token), replacement?.1)) }
        return replacement
    }

    /// The replacement of a category value by its stored name, when it differs.
    private func categoryValue(_ event: ParsedEvent, line: UnsafeRawBufferPointer, _ identifier: String) throws -> (Range<Int>, [UInt8])? {
        let range: Range<Int>
        let text: String
        switch event.value {
        case .number(let r, _):
            range = r
            text = String(decoding: UnsafeRawBufferPointer(rebasing: line[r]), as: UTF8.self)
        case .string(let r):
            range = r
            text = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[r]))
        case nil: return nil
        }
        let name: String?
        do {
            name = try CategoryValues.canonical(text, type: identifier)
        } catch let error as HealthLogError {
            throw FieldError(field: "value", reason: error.message)
        }
        guard let name else { return nil }
        let token = Array(JSONText.string(name).utf8)
        return token.elementsEqual(line[range]) ? nil : (range, token)
    }

    /// Whether `a` holds the bytes of `b`.
    private static func same(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let base = b.baseAddress, !a.isEmpty else { return true }
        return a.withUnsafeBytes { memcmp($0.baseAddress!, base, a.count) == 0 }
    }

    /// `line` with each range replaced by its bytes (ranges in increasing order, disjoint).
    private static func rewrite(_ line: UnsafeRawBufferPointer, _ replacements: [(Range<Int>, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 64)
        var at = 0
        for (range, bytes) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[at..<range.lowerBound]))
            out.append(contentsOf: bytes)
            at = range.upperBound
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[at...]))
        return out
    }
}
