import Foundation
import HealthLogTestSupport
import Testing

@testable import HealthLog

/// The table of each quantity type's unit in docs/exports-and-statistics.md, which
/// statistics and partitions use, says what ``QuantityTypeInfo`` says.
@Suite("Type unit docs")
struct TypeUnitDocsTests {
    @Test("Every known quantity type is listed once, under its unit")
    func docsListEveryTypeUnit() throws {
        let text = try String(contentsOfFile: PackageFiles.path("docs/exports-and-statistics.md"), encoding: .utf8)
        var listed: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, cells[0].hasSuffix("`") else { continue }
            let unit = String(cells[0].dropFirst().dropLast())
            guard (try? HealthUnit(unit)) != nil else { continue }
            for name in cells[1].split(separator: ",") {
                let type = name.trimmingCharacters(in: .whitespaces)
                #expect(listed[type] == nil, "\(type) listed twice")
                listed[type] = unit
            }
        }
        let known = Dictionary(uniqueKeysWithValues: QuantityTypeInfo.names.map { ($0, QuantityTypeInfo.of("HKQuantityTypeIdentifier" + $0)!.unit.text) })
        #expect(listed == known)
    }
}
