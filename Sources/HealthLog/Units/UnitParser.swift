/// Parses HealthKit's unit strings: symbols (``UnitAtom``) with optional SI prefixes,
/// powers (`m^2`, `s^-1`), products (`·`, `*` or `.`), quotients (`/`) and parentheses. As
/// in HealthKit's own strings, everything after a `/` (up to a closing parenthesis) is in
/// the denominator: `mL/kg·min` is mL/(kg·min). A molar unit carries its substance's
/// molar mass in grams per mole in angle brackets (`mmol<180.15588000005408>/L`) and then
/// measures mass, so it converts to `mg/dL`; without one it measures amount of substance.
enum UnitParser {
    /// A unit as parsed, before it has a name.
    struct Parsed {
        var dimension = UnitDimension.none
        var factor = 1.0
        var decimalExponent = 0
        var offset = 0.0
    }

    /// Parses `text`, or throws ``HealthLogError/Code/badUsage`` naming what is wrong.
    static func parse(_ text: String) throws -> Parsed {
        let chars = Array(text.unicodeScalars)
        var at = 0
        guard !chars.isEmpty else { throw HealthLogError(.badUsage, "an empty unit") }
        func fail(_ reason: String) -> HealthLogError {
            HealthLogError(.badUsage, "'\(text)' is not a HealthKit unit: \(reason)")
        }
        func product() throws -> Parsed {
            var result = Parsed()
            var dividing = false
            while true {
                var factor = try term()
                if dividing { factor = invert(factor) }
                result = multiply(result, factor)
                guard at < chars.count else { break }
                switch chars[at] {
                case "/":
                    guard !dividing else { throw fail("a second '/' (write a/b·c for a/(b·c))") }
                    dividing = true
                case "·", "*", ".": break
                case ")": return result
                default: throw fail("unexpected '\(chars[at])' at \(at + 1)")
                }
                at += 1
            }
            return result
        }
        func term() throws -> Parsed {
            var base: Parsed
            if at < chars.count, chars[at] == "(" {
                at += 1
                base = try product()
                guard at < chars.count, chars[at] == ")" else { throw fail("a '(' without its ')'") }
                at += 1
            } else {
                let start = at
                while at < chars.count, !"/·*.()^<".unicodeScalars.contains(chars[at]) { at += 1 }
                let symbol = String(String.UnicodeScalarView(chars[start..<at]))
                guard !symbol.isEmpty else { throw fail(at < chars.count ? "a unit expected before '\(chars[at])'" : "a unit expected at the end") }
                guard let atom = UnitAtom.named(symbol) else {
                    throw fail("unknown unit '\(symbol)'" + (UnitSuggestion.suggestion(for: symbol).map { ": did you mean \($0)?" } ?? ""))
                }
                base = Parsed(dimension: atom.dimension, factor: atom.factor, decimalExponent: atom.decimalExponent, offset: atom.offset)
                if at < chars.count, chars[at] == "<" {
                    guard atom.dimension == .amount else { throw fail("a molar mass '<…>' after '\(symbol)', which is not a molar unit") }
                    let open = at + 1
                    while at < chars.count, chars[at] != ">" { at += 1 }
                    guard at < chars.count, let mass = Double(String(String.UnicodeScalarView(chars[open..<at]))), mass.isFinite, mass > 0 else {
                        throw fail("the molar mass in '<…>' is not a positive number")
                    }
                    at += 1
                    base.dimension = .mass
                    base.factor *= mass
                }
            }
            if at < chars.count, chars[at] == "^" {
                at += 1
                let start = at
                if at < chars.count, chars[at] == "-" { at += 1 }
                while at < chars.count, chars[at].properties.numericType != nil { at += 1 }
                guard let power = Int(String(String.UnicodeScalarView(chars[start..<at]))), power != 0, abs(power) <= 9 else {
                    throw fail("a power must be a small non-zero integer")
                }
                base = raise(base, power)
            }
            return base
        }
        let result = try product()
        guard at == chars.count else { throw fail("unexpected '\(chars[at])' at \(at + 1)") }
        return result
    }

    private static func multiply(_ a: Parsed, _ b: Parsed) -> Parsed {
        let offset = a.dimension == .none ? b.offset : b.dimension == .none ? a.offset : 0
        return Parsed(dimension: a.dimension * b.dimension, factor: a.factor * b.factor, decimalExponent: a.decimalExponent + b.decimalExponent, offset: offset)
    }

    private static func invert(_ a: Parsed) -> Parsed {
        Parsed(dimension: a.dimension.raised(to: -1), factor: 1 / a.factor, decimalExponent: -a.decimalExponent)
    }

    private static func raise(_ a: Parsed, _ power: Int) -> Parsed {
        var factor = 1.0
        for _ in 0..<abs(power) { factor *= a.factor }
        return Parsed(dimension: a.dimension.raised(to: power), factor: power > 0 ? factor : 1 / factor, decimalExponent: a.decimalExponent * power)
    }
}
