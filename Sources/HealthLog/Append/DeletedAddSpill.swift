/// The sequence numbers of the adds an append deleted, for the ``DeletedAddIndex`` and its
/// witness, in bounded memory: every ``defaultResidentSeqs`` of them are sorted and written
/// out as a stretch of a ``FingerprintKeySpill`` (sealed, as
/// ``ScratchCipher/Kind/deletedAdds``, for an encrypted store), and their witness
/// (``BatchOrigin/DeletedAddWitness``, a sum in any order) is kept as they come, so memory
/// holds a stretch and a page per stretch left, not a number per delete, until the
/// append's end reads them in order (``forEachSorted(_:)``).
final class DeletedAddSpill {
    /// Numbers held in memory before they are sorted and written out, by default: 2¹⁶ (512 KB).
    static let defaultResidentSeqs = 1 << 16

    /// The numbers not written out yet.
    private var resident: [UInt64] = []
    /// Numbers held before a stretch is written out.
    private let residentSeqs: Int
    /// The stretches written out.
    private let spill: FingerprintKeySpill
    /// The witness of every number added.
    private(set) var witness = BatchOrigin.DeletedAddWitness.empty

    /// No numbers yet; stretches are sealed with `sealing` (an encrypted store's) or in the
    /// clear, and written every `residentSeqs` numbers.
    init(sealing: ScratchCipher?, residentSeqs: Int = defaultResidentSeqs) {
        precondition(residentSeqs >= 1, "a stretch holds a number")
        self.residentSeqs = residentSeqs
        spill = FingerprintKeySpill(sealing: sealing, kind: .deletedAdds)
    }

    /// How many numbers were added.
    var count: Int { Int(witness.count) }

    /// The bytes of numbers held in memory (a stretch at most).
    var residentBytes: Int { resident.capacity * 8 }

    /// Adds `seq`, an add deleted (not added before).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a stretch cannot be written out.
    func append(_ seq: UInt64) throws {
        if resident.isEmpty { resident.reserveCapacity(residentSeqs) }
        resident.append(seq)
        witness = witness.adding(seq: seq)
        guard resident.count >= residentSeqs else { return }
        resident.sort()
        try resident.withUnsafeBufferPointer { try spill.write($0) }
        resident.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every number added, ascending, as the stretches are merged.
    ///
    /// - Throws: as ``FingerprintKeySpill/merge(with:_:)``, and what `body` throws.
    func forEachSorted(_ body: (UInt64) throws -> Void) throws {
        try resident.sorted().withUnsafeBufferPointer { resident in try spill.merge(with: resident, body) }
    }
}
