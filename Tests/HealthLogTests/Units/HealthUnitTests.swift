import Testing
@testable import HealthLog

/// HealthKit's unit strings and the conversions between compatible units.
@Suite("Units")
struct HealthUnitTests {
    private static func convert(_ value: Double, _ from: String, _ to: String) throws -> Double {
        try HealthUnit(from).convert(value, to: HealthUnit(to))
    }

    @Test(
        "Every unit string real exports and HealthKit's documentation use parses",
        arguments: [
            "count", "count/min", "count/s", "%", "kg", "lb", "st", "g", "mg", "mcg", "µg", "cm", "m", "km", "mi", "ft", "in",
            "kcal", "Cal", "kJ", "degC", "degF", "ms", "s", "min", "hr", "d", "mmHg", "mg/dL", "mmol<180.15588000005408>/L",
            "mmol<180.1558800000541>/L", "mL/min·kg", "mL/kg·min", "mL/(kg*min)", "dBASPL", "dBHL", "W", "km/hr", "m/s", "L/min",
            "mL", "L", "IU", "µS", "kcal/hr·kg", "m^2", "s^-1", "fl_oz_us", "cup_imp", "Hz", "appleEffortScore", "K",
        ])
    func parses(_ text: String) throws {
        #expect(try HealthUnit(text).text == text)
    }

    @Test("Mass, length, energy and rates convert as HealthKit's doubleValue(for:) does")
    func conversions() throws {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(abs(a), abs(b)) }
        #expect(close(try Self.convert(100, "kg", "lb"), 220.46226218487757))
        #expect(close(try Self.convert(150, "lb", "kg"), 68.0388555))
        #expect(close(try Self.convert(1, "st", "lb"), 14))
        #expect(close(try Self.convert(1, "mi", "km"), 1.609344))
        #expect(close(try Self.convert(1, "kcal", "kJ"), 4.184))
        #expect(try Self.convert(1500, "g", "kg") == 1.5)
        #expect(try Self.convert(5.1, "km", "m") == 5100)
        #expect(try Self.convert(250, "kcal", "Cal") == 250)
        #expect(try Self.convert(1.5, "count/s", "count/min") == 90)
        #expect(try Self.convert(45, "mL/(kg*min)", "mL/kg·min") == 45)
        #expect(try Self.convert(45, "mL/min·kg", "mL/kg·min") == 45)
        #expect(try Self.convert(2.5, "hr", "min") == 150)
    }

    @Test("Temperatures convert with their offsets, and glucose between mass and molar units")
    func offsetsAndMolarMass() throws {
        #expect(try Self.convert(100, "degC", "degF") == 212)
        #expect(abs(try Self.convert(98.6, "degF", "degC") - 37) < 1e-12)
        #expect(abs(try Self.convert(300, "K", "degF") - 80.33) < 1e-9)
        #expect(abs(try Self.convert(0, "degC", "K") - 273.15) < 1e-12)
        let mgdl = try Self.convert(5.5, "mmol<180.15588000005408>/L", "mg/dL")
        #expect(abs(mgdl - 99.08573400003) < 1e-9, "5.5 mmol/L of glucose is about 99.1 mg/dL, not \(mgdl)")
        #expect(abs(try Self.convert(mgdl, "mg/dL", "mmol<180.15588000005408>/L") - 5.5) < 1e-12)
    }

    @Test("Kilocalories and food calories are the same unit; a unit converts to itself unchanged")
    func equality() throws {
        #expect(try HealthUnit("kcal") == HealthUnit("Cal"))
        #expect(try HealthUnit("kg") != HealthUnit("lb"))
        #expect(try Self.convert(0.1 + 0.2, "kg", "kg") == 0.1 + 0.2)
    }

    @Test("Units of different dimensions refuse to convert, naming both")
    func incompatible() throws {
        #expect(throws: HealthLogError.self) { try Self.convert(1, "kg", "km") }
        #expect(try !HealthUnit("count").isCompatible(with: HealthUnit("%")))
        #expect(try !HealthUnit("dBASPL").isCompatible(with: HealthUnit("count")))
        do {
            _ = try Self.convert(1, "kg", "km")
            Issue.record("kg converted to km")
        } catch let error as HealthLogError {
            #expect(error.message.contains("'kg'") && error.message.contains("'km'"))
        }
    }

    @Test("What is not a HealthKit unit is refused with the reason", arguments: ["bpm", "", "kg/", "mol<x>/L", "(kg", "kg^0", "g/L/min", "beats"])
    func refuses(_ text: String) {
        #expect(throws: HealthLogError.self) { try HealthUnit(text) }
    }
}
