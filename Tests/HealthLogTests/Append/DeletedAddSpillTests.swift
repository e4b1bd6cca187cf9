import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``DeletedAddSpill``: the adds an append deleted, held a stretch at a time and read back
/// sorted, with the witness of them all.
@Suite("Deleted-add spill")
struct DeletedAddSpillTests {
    @Test("Numbers spilled in stretches read back ascending, with their witness, while memory holds one stretch", arguments: [false, true])
    func roundTrip(sealed: Bool) throws {
        let spill = DeletedAddSpill(sealing: sealed ? try ScratchCipher.forProcess() : nil, residentSeqs: 100)
        var random = SeededRandom(state: 5)
        var model: [UInt64] = []
        var used: Set<UInt64> = []
        while model.count < 1_050 {
            let seq = random.next() % 1_000_000 + 1
            guard used.insert(seq).inserted else { continue }
            try spill.append(seq)
            model.append(seq)
            #expect(spill.residentBytes < 2 * 100 * 8, "one stretch in memory (its room rounded up), not a number per delete")
        }
        #expect(spill.count == 1_050)
        var read: [UInt64] = []
        try spill.forEachSorted { read.append($0) }
        #expect(read == model.sorted())
        #expect(spill.witness == BatchOrigin.DeletedAddWitness(of: model))
    }

    @Test("No number, no scratch file: an empty list and the empty witness")
    func empty() throws {
        let spill = DeletedAddSpill(sealing: nil)
        var read: [UInt64] = []
        try spill.forEachSorted { read.append($0) }
        #expect(read.isEmpty)
        #expect(spill.witness == .empty)
    }

    @Test("A witness grown a number at a time, or by another witness, is the witness of all the numbers")
    func witnessSums() {
        let all: [UInt64] = [7, 3, 1_000, 42, 9]
        var one = BatchOrigin.DeletedAddWitness.empty
        for seq in all { one = one.adding(seq: seq) }
        #expect(one == BatchOrigin.DeletedAddWitness(of: all))
        #expect(BatchOrigin.DeletedAddWitness(of: Array(all[0..<2])).adding(BatchOrigin.DeletedAddWitness(of: Array(all[2...]))) == one)
    }
}
