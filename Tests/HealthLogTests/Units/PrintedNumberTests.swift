import Testing
@testable import HealthLog

/// The precision of converted values and computed figures (``PrintedNumber``).
@Suite("PrintedNumber")
struct PrintedNumberTests {
    /// Converted values and how they print.
    static let conversions: [(Double, String)] = [
        (1.21667 * 60, "73.0002"), (1.03333 * 60, "61.9998"), (0.1 + 0.2, "0.3"), (-(0.1 + 0.2), "-0.3"),
        (220.46226218487757, "220.462262184878"), (1e-7 * 3, "3e-07"), (2.5e20, "2.5e+20"), (0, "0"), (999999999999999.9, "1000000000000000"),
    ]

    /// Computed figures and how they print.
    static let figures: [(Double, String)] = [
        (21627.70408163265, "21627.7"), (928.5714285714286, "928.571"), (71.42857142857143, "71.4286"), (1234567.8, "1234568"),
        (0.000812345678, "0.000812346"), (9.9999996, "10"), (72.5, "72.5"), (3600, "3600"), (-2.345678901, "-2.34568"),
    ]

    @Test("A converted value keeps 15 significant digits: count/s to count/min loses its binary noise", arguments: conversions)
    func converted(value: Double, printed: String) {
        #expect(JSONText.number(PrintedNumber.converted(value)) == printed)
    }

    @Test("A computed figure keeps 6 significant digits but every whole unit", arguments: figures)
    func figure(value: Double, printed: String) {
        #expect(JSONText.number(PrintedNumber.figure(value)) == printed)
    }

    @Test("Infinities and NaN pass through unchanged")
    func nonFinite() {
        #expect(PrintedNumber.converted(.infinity) == .infinity)
        #expect(PrintedNumber.figure(.nan).isNaN)
    }
}
