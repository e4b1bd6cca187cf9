import Foundation
import HealthLogTestSupport

/// The Apple Health export fixtures (``PackageFiles/appleHealthExport(_:)``, see the
/// PROVENANCE.md beside them), and what healthkit-to-sqlite 1.0.1 counted in each.
enum ExportFixtures {
    /// Each public sample export, with its key in `expected_healthkit-to-sqlite-1.0.1_rowcounts.json`.
    static let samples: [(file: String, expectedKey: String)] = [
        ("aleksi-applehealth.xml", "aleksi-applehealth_testdata.xml"),
        ("alxdrcirilo-apple-health-parser.xml", "alxdrcirilo-apple-health-parser_export.xml"),
        ("alxdrcirilo-apple-health-parser.zip", "alx_zip"),
        ("freddiefujiwara-ahcd.xml", "freddiefujiwara-ahcd_export.xml"),
        ("healthkit-to-sqlite.xml", "healthkit-to-sqlite_export.xml"),
        ("healthkit-to-sqlite-localised.zip", "zip"),
        ("tdda-applehealthdata.xml", "tdda-applehealthdata_export6s3sample.xml"),
    ]

    /// healthkit-to-sqlite's row counts per table for the fixture with key `key`.
    static func expectedRows(_ key: String) throws -> [String: Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: PackageFiles.appleHealthExport("expected_healthkit-to-sqlite-1.0.1_rowcounts.json")))
        let all = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return all[key] as? [String: Int] ?? [:]
    }

    /// `text` with every line that contains `marker` removed (to make an earlier or
    /// smaller export from a fixture whose records are one line each).
    static func dropping(lines marker: String, from text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(marker) }.joined(separator: "\n")
    }
}
