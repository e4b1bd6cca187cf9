import HealthLogTestSupport
import Testing

@testable import HealthLog

/// The buffer a reader reads frames into, resized for each frame without zeroing it first:
/// whatever its last size and capacity, a read fills exactly the frame's bytes.
@Suite("Frame buffer resizing")
struct FrameBufferResizeTests {
    @Test("Shortened in place, lengthened within its capacity or beyond it, the buffer is the asked size, and frames read into it are the replay's")
    func sizesAndReads() throws {
        var buffer = [UInt8](repeating: 7, count: 100)
        let capacity = buffer.capacity
        buffer.resize(forOverwrite: 40)
        #expect(buffer.count == 40)
        #expect(buffer.capacity == capacity, "shortened in place")
        #expect(buffer.allSatisfy { $0 == 7 })
        buffer.resize(forOverwrite: 90)
        #expect(buffer.count == 90)
        #expect(buffer.capacity == capacity, "lengthened within its capacity")
        buffer.resize(forOverwrite: 5000)
        #expect(buffer.count == 5000)
        buffer.resize(forOverwrite: 0)
        #expect(buffer.isEmpty)

        // Batches of different sizes read one after the other through one buffer.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 4096
        let store = HealthStore(directory: dir.file("store"), options: options)
        var lines = ""
        for i in 0..<400 {
            let note = String(repeating: "n", count: (i * 37) % 300)
            lines += #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 200 + 1),"unit":"count/min","metadata":{"note":"\#(note)"}}"# + "\n"
        }
        _ = try store.append(ndjson: Array(lines.utf8))
        let snapshot = try LogSnapshot(StoreLayout(directory: dir.file("store")))
        let batches = try snapshot.allBatches()
        #expect(batches.count > 10)
        var frames: [UInt8] = [1, 2, 3]
        for batch in batches {
            let file = snapshot.segments[batch.segment]
            let length = Int(batch.header.groups[0].frameLength)
            try file.read(into: &frames, at: batch.groupOffsets[0], count: length)
            #expect(frames == (try file.read(at: batch.groupOffsets[0], count: length)))
            #expect(CRC32C.checksum(frames[...]) == batch.header.groups[0].frameCRC)
        }
    }
}
