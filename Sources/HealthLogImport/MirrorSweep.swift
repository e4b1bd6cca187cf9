import HealthLog

/// `--mirror`'s sweep: which of the store's imported samples an export no longer derives.
/// Memory does not grow with the export or the store: the export's UUIDs go to a spill as
/// they are met, the store's imported samples are read once into another, and the sweep
/// takes the export's UUIDs a share at a time (``uuidsPerPass``, shares by UUID:
/// ``UUIDTable/share(of:among:)``), reading the store's once per share. A UUID falls in one
/// share only, so each gone sample is found exactly once.
final class MirrorSweep {
    /// The most export UUIDs a share's table holds: about 4.5 MB of table.
    static let uuidsPerPass = 1 << 17
    /// Where the spills' files go, when they need one.
    private let storeDirectory: String
    /// The cipher the spills' files are sealed with; `nil`: in the clear.
    private let sealing: ScratchCipher?
    /// The export's UUIDs (records without a line), made at the first.
    private var exported: EventSpill?
    /// The export UUIDs added (a UUID met twice counted twice).
    private(set) var count = 0
    /// The most export UUIDs a share holds; tests make it small.
    private let perPass: Int

    /// No UUIDs yet; the spills, when they need files, keep them near `storeDirectory`,
    /// sealed with `sealing` (an encrypted store's) or in the clear.
    init(near storeDirectory: String, sealing: ScratchCipher?, uuidsPerPass: Int = uuidsPerPass) {
        self.storeDirectory = storeDirectory
        self.sealing = sealing
        perPass = max(1, uuidsPerPass)
    }

    /// The shares the sweep takes the export's UUIDs in.
    var passes: Int { UUIDTable.shares(for: count, perShare: perPass) }

    /// Adds a UUID the export derives.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the spill's file cannot be written.
    func add(_ uuid: SampleUUID) throws {
        if exported == nil { exported = EventSpill.forUUIDs(near: storeDirectory, sealing: sealing) }
        try exported!.add(uuid)
        count += 1
    }

    /// Calls `gone` with each UUID `imported` gives (its argument, called with each of the
    /// store's imported samples, is called once, before `gone` is) that no added UUID
    /// matches, share by share, each such UUID once for each time `imported` gave it. A
    /// share's finds go to a spill first, so its table is let go before `gone` appends.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a spill's file cannot be written or read;
    ///   whatever `imported` or `gone` throws.
    func sweep(imported: ((SampleUUID) throws -> Void) throws -> Void, gone: (SampleUUID) throws -> Void) throws {
        let kept = EventSpill.forUUIDs(near: storeDirectory, sealing: sealing)
        try imported { try kept.add($0) }
        let passes = passes
        for share in 0..<passes {
            let found = try goneOfShare(share, of: passes, kept: kept)
            try found.forEach(progress: { _ in }) { try gone($0.uuid) }
        }
    }

    /// The UUIDs of share `share` (of `passes`) that `kept` holds and no added UUID matches,
    /// in a spill.
    private func goneOfShare(_ share: Int, of passes: Int, kept: EventSpill) throws -> EventSpill {
        var table = UUIDTable(capacity: min(count, perPass + perPass / 8))
        try exported?.forEach(progress: { _ in }, keepingChunks: true) { record in
            if UUIDTable.share(of: record.uuid, among: passes) == share { table.insert(record.uuid) }
        }
        let found = EventSpill.forUUIDs(near: storeDirectory, sealing: sealing)
        try kept.forEach(progress: { _ in }, keepingChunks: true) { record in
            guard UUIDTable.share(of: record.uuid, among: passes) == share, !table.contains(record.uuid) else { return }
            try found.add(record.uuid)
        }
        return found
    }
}
