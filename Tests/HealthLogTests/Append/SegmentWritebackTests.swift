#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CWriteback
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An append starts its segment's writeback as it goes (``SegmentAppender``), so the
/// `fdatasync` at a roll or at the commit waits for the last bytes only.
@Suite("Segment writeback")
struct SegmentWritebackTests {
    /// Five batches of twenty heart rates each, in sequence order from 1.
    static func batches() throws -> [(header: BatchHeader, bytes: [UInt8])] {
        var names = Interner()
        let type = Array("HKQuantityTypeIdentifierHeartRate".utf8).withUnsafeBytes { names.id(of: $0) }
        return try (0..<5).map { k in
            var builder = BatchBuilder()
            for seq in UInt64(k * 20 + 1)...UInt64(k * 20 + 20) {
                builder.add(kind: FormatConstants.groupKindAdd, type: type, seq: seq, start: Int64(seq), end: Int64(seq)) {
                    $0.append(contentsOf: #"{"seq":\#(seq),"op":"add","value":\#(seq * 7919 % 1000)}"#.utf8)
                    $0.append(10)
                }
            }
            return try builder.encode(storeTag: 1, appendedMillis: 1, endOfAppend: k == 4, names: names)
        }
    }

    @Test("With syncs on, the writeback of what each batch wrote starts once the threshold is passed, segment by segment; with syncs off, never", arguments: [true, false])
    func startsAsItGoes(_ sync: Bool) throws {
        let batches = try Self.batches()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(mkdir(dir.file("store"), 0o700) == 0)
        var options = StoreOptions()
        options.sync = sync
        options.writebackBytes = 1
        // Two batches a segment: the third rolls to a new one.
        options.segmentBytes = SegmentLayout.prologueLength + 2 * batches.map(\.bytes.count).max()!
        let appender = try SegmentAppender(StoreLayout(directory: dir.file("store")), options: options, faults: FaultCounter(FaultPlan()), storeID: .random(), cipher: nil, resume: nil)
        var segments: Set<UInt64> = []
        for batch in batches {
            let (name, _) = try appender.write(batch.bytes, header: batch.header)
            segments.insert(name.baseSeq)
            let end = try #require(appender.current).offset
            #expect(appender.writebackFrom == (sync ? end : 0))
        }
        #expect(segments.count == 3)

        // A threshold larger than a segment's bytes starts none.
        options.writebackBytes = 1 << 30
        #expect(mkdir(dir.file("other"), 0o700) == 0)
        let patient = try SegmentAppender(StoreLayout(directory: dir.file("other")), options: options, faults: FaultCounter(FaultPlan()), storeID: .random(), cipher: nil, resume: nil)
        for batch in batches { _ = try patient.write(batch.bytes, header: batch.header) }
        #expect(patient.writebackFrom == 0)
    }

    #if os(Linux)
    @Test("On Linux the writeback is the kernel's sync_file_range: it takes a regular file's range and refuses a pipe")
    func kernelCall() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fd = open(dir.file("data"), O_RDWR | O_CREAT, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let bytes = [UInt8](repeating: 7, count: 1 << 16)
        #expect(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        #expect(healthlog_start_writeback(fd, 0, Int64(bytes.count)) == 0)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(healthlog_start_writeback(ends[1], 0, 1) == -1 && errno == ESPIPE)
    }
    #endif
}
