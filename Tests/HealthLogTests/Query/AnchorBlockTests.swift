import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A replay from an anchor inside a group of several LZ4 blocks decodes that group from the
/// block its lines after the anchor start in, and delivers what decoding it whole does.
@Suite("Replay from an anchor in a group's later block")
struct AnchorBlockTests {
    /// A store of one batch: 2,400 heart rates of about 330 bytes (one group of four
    /// blocks), every fiftieth deleted in the same append.
    struct Fixture {
        let dir: TemporaryDirectory
        let store: HealthStore
        /// The sequence numbers HealthKit's view holds, in order.
        var visible: [UInt64] = []

        init() throws {
            dir = try TemporaryDirectory()
            var options = StoreOptions()
            options.batchBytes = 4 << 20
            store = HealthStore(directory: dir.file("store"), options: options)
            var lines: [String] = []
            var deletes: [String] = []
            var uuids: [UInt64: String] = [:]
            var deleted: Set<String> = []
            for n in 0..<2400 {
                let uuid = String(format: "%08X-0000-4000-8000-%012X", UInt32(truncatingIfNeeded: n &* 2_654_435_761), n)
                let note = String(repeating: "x", count: 150 + n % 40)
                lines.append(
                    #"{"uuid":"\#(uuid)","type":"HeartRate","start":"2024-01-01T00:00:00Z","value":\#(60 + n % 40),"unit":"count/min","metadata":{"Note":"\#(note)"}}"#)
                uuids[UInt64(n + 1)] = uuid
                if n % 50 == 7 {
                    deletes.append(#"{"op":"delete","uuid":"\#(uuid)"}"#)
                    deleted.insert(uuid)
                }
            }
            visible = (1...UInt64(2400)).filter { !deleted.contains(uuids[$0]!) } + (2401...UInt64(2400 + deletes.count))
            _ = try store.append(ndjson: Array(((lines + deletes).joined(separator: "\n") + "\n").utf8))
        }

        /// The sequence numbers and outcome of a replay of heart rates after `anchor`.
        func replay(after anchor: UInt64, limit: Int = 0) throws -> ([UInt64], ReplayOutcome) {
            let request = ReplayRequest(anchor: try QueryAnchor(token: String(anchor)), types: ["HKQuantityTypeIdentifierHeartRate"], limit: limit)
            return try CorruptionFixture.replayedSeqs(store, request)
        }
    }

    /// From anchors in each block, with and without a limit, the replay delivers exactly the
    /// visible events after the anchor.
    @Test func deliversWhatAWholeGroupDoes() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        for anchor: UInt64 in [0, 1, 700, 1000, 1600, 2300, 2399, 2400, 2420] {
            for limit in [0, 5, 300] {
                let (seqs, _) = try fixture.replay(after: anchor, limit: limit)
                let expected = fixture.visible.filter { $0 > anchor }
                #expect(seqs == (limit > 0 ? Array(expected.prefix(limit)) : expected), "anchor \(anchor), limit \(limit)")
            }
        }
    }

    /// An anchor in the group's last block decodes far less of it than one before its first
    /// line (the blocks before are skipped), and an anchor in its first block decodes it whole.
    @Test func skipsTheBlocksBeforeTheAnchor() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let whole = try fixture.replay(after: 0, limit: 5).1.bytesDecompressed
        #expect(try fixture.replay(after: 1, limit: 5).1.bytesDecompressed == whole)
        #expect(try fixture.replay(after: 2390, limit: 5).1.bytesDecompressed < whole - 2 * LZ4FrameDecoder.blockSize)
    }
}
