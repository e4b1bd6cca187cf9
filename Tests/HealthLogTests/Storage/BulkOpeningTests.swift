import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A process reading an AES-256-GCM store in bulk switches to OpenSSL's implementation
/// (``AES256GCM/BulkSwitch``) and still reads every unit libsodium sealed, answering as a
/// plaintext store of the same appends.
@Suite("AES-256-GCM in bulk")
struct BulkOpeningTests {
    @Test("A replay expecting more than the threshold takes OpenSSL and opens what libsodium sealed")
    func replaySwitches() throws {
        guard AES256GCM.isFast else { return }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.batchBytes = 65536
        // Sealed with AES-256-GCM (the preferred cipher on a CPU with AES-NI).
        let aes = try EncryptedSegmentTests.makeStore(dir.path + "/sealed", options: options)
        let plain = HealthStore(directory: dir.path + "/plain", options: options)
        for store in [aes, plain] {
            _ = try store.append(ndjson: CompactionTests.lines(1...6000))
            _ = try store.append(ndjson: CompactionTests.lines(6001...6100, deleting: [5, 4000]))
        }
        // The threshold lowered below this small store's bytes, for the rest of this
        // process: both implementations give the same bytes, so other tests read and
        // write as before, through OpenSSL.
        AES256GCM.bulk.threshold.store(16 << 10, ordering: .relaxed)
        #expect(try CompactionTests.raw(aes) == CompactionTests.raw(plain))
        #expect(AES256GCM.bulk.isSwitched)
        #expect(try aes.verify().isSound)
    }
}
