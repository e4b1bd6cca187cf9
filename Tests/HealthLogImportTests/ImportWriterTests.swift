import HealthLog
import Testing

@testable import HealthLogImport

/// The import's writing pass (``ImportWriter``) in bounded memory.
@Suite("Import: the writer's memory")
struct ImportWriterTests {
    @Test(
        "The filter of the UUIDs given to earlier appends takes about a byte a UUID and at most 4 MiB, whatever the export's size",
        arguments: [(1_000, 1_024), (400_000, 512 << 10), (4_000_000, 4 << 20), (40_000_000, 4 << 20)])
    func givenFilterBounded(_ lines: Int, _ bytes: Int) {
        let writer = ImportWriter(store: HealthStore(directory: "/nonexistent"), eventsPerAppend: 50_000, unusedAsOfHead: 0, expectedLines: lines)
        #expect(writer.givenFilterBytes == bytes)
        let unchecked = ImportWriter(store: HealthStore(directory: "/nonexistent"), eventsPerAppend: 50_000, expectedLines: lines)
        #expect(unchecked.givenFilterBytes == 0)
    }
}
