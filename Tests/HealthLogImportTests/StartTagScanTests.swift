import Testing
@testable import HealthLogImport

/// The attribute pre-scan finds the same crowded tag, at the same line, however the input
/// is cut into pieces: quoted values (skipped whole) may hold newlines, `=`, `>` and the
/// other quote, and may run across a piece's end.
@Suite("StartTagScan: the same finding for any pieces")
struct StartTagScanTests {
    /// A start tag whose values hold what is not an attribute: `=`, `>`, newlines, the other quote.
    static let busyTag = "<Record a=\"x=y>\nz'w\n\" b='p\"=\nq>' c = \"\"/>\n"

    /// A start tag named `name` with `count` attributes.
    static func tag(_ name: String, attributes count: Int) -> String {
        "<\(name)" + (0..<count).map { " k\($0)=\"v=\($0)\"" }.joined() + "/>\n"
    }

    /// The finding of a scan fed `text` in pieces of `size` bytes.
    static func scan(_ text: String, pieces size: Int) -> StartTagScan.Finding? {
        let bytes = Array(text.utf8)
        var scan = StartTagScan()
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + size)
            if let finding = bytes[at..<end].withUnsafeBytes({ scan.scan($0) }) { return finding }
            at = end
        }
        return nil
    }

    @Test("A crowded tag after values holding newlines, = and > is found at its line, for any piece size")
    func crowdedAfterBusyValues() {
        let text = "<HealthData>\n" + Self.busyTag + Self.busyTag + Self.tag("Crowd", attributes: ImportLimits.attributes + 1) + "</HealthData>\n"
        let expected = StartTagScan.Finding.crowded(StartTagScan.CrowdedTag(line: 10, element: "Crowd"))
        for size in [1, 2, 3, 5, 7, 16, 64, 512, text.utf8.count] {
            #expect(Self.scan(text, pieces: size) == expected, "pieces of \(size) bytes")
        }
    }

    @Test("Tags at the bound, with = in every value, are not refused, for any piece size")
    func atTheBound() {
        let text = "<HealthData>\n" + Self.busyTag + Self.tag("Full", attributes: ImportLimits.attributes) + Self.busyTag + "</HealthData>\n"
        for size in [1, 2, 3, 5, 7, 16, 64, 512, text.utf8.count] {
            #expect(Self.scan(text, pieces: size) == nil, "pieces of \(size) bytes")
        }
    }
}
