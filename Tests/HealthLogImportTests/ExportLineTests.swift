import HealthLog
import Testing

@testable import HealthLogImport

/// An element past line 65,534 whose line libxml2's reader did not keep has line 65,535;
/// the import's messages say "past line 65,534" for it, not a line it is not on.
@Suite("Import: lines in messages")
struct ExportLineTests {
    @Test("Unmapped items and unread files name a kept line, and say 'past line 65,534' for one not kept")
    func messages() {
        #expect(UnmappedItem(line: 12, element: "Record", reason: "why").description == "line 12: Record: why")
        #expect(UnmappedItem(line: 70_000, element: "Record", reason: "why").description == "line 70000: Record: why")
        #expect(UnmappedItem(line: 65_535, element: "Record", reason: "why").description == "past line 65,534: Record: why")
        #expect(ReferencedFileProblem(file: "/r.gpx", line: 12, reason: "why").description == "/r.gpx (named at line 12): why")
        #expect(ReferencedFileProblem(file: "/r.gpx", line: 65_535, reason: "why").description == "/r.gpx (named past line 65,534): why")
    }
}
