import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A long-lived handle whose keys were opened before another handle (or process) rotated
/// the store's key: its next append notices under the writer lock and seals under the new
/// current epoch, so a rekey can drop the old epoch without losing what it wrote.
@Suite("Rotated elsewhere")
struct RotatedElsewhereTests {
    @Test("After another handle rotates, a long-lived handle appends under the new epoch; a rekey then drops the old epoch and everything reads")
    func appendsUnderTheNewEpoch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try KeySlotTests.makeStore(dir)
        let secret = StoreSecret.passphrase(Array("correct horse".utf8))
        let long = HealthStore(directory: path, secret: secret, options: KeySlotTests.weak)
        _ = try long.append(ndjson: CompactionTests.lines(1...30))
        let other = HealthStore(directory: path, secret: secret, options: KeySlotTests.weak)
        #expect(try other.rotateKey() == 1)
        _ = try long.append(ndjson: CompactionTests.lines(31...60))
        #expect(try other.keySlots().batchesByEpoch == [0: 1, 1: 1], "the second append is sealed under epoch 1")
        let report = try other.rekey()
        #expect(report.epochsDropped == [0])
        _ = try long.append(ndjson: CompactionTests.lines(61...70))
        let fresh = HealthStore(directory: path, secret: secret, options: KeySlotTests.weak)
        #expect(try fresh.keySlots().batchesByEpoch == [1: 3])
        #expect(try CompactionTests.raw(fresh).count == 70)
        #expect(try fresh.verify().isSound)
    }
}
