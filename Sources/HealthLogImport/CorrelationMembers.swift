import HealthLog

/// The correlation members an import met, for the count of those also found at top level:
/// an Apple Health export lists a correlation's members inside it and again on their own,
/// and the report counts each such sample once. Memory does not grow with the members (a
/// food diary holds tens of members a meal, millions over the years): each member's UUID
/// and type go to a spill, and the count takes the members a share at a time
/// (``membersPerPass``, shares by UUID: ``UUIDTable/share(of:among:)``), reading the
/// top-level UUIDs once per share.
final class CorrelationMembers {
    /// One share's members, looked up by UUID, and what the top-level UUIDs read so far
    /// matched of them.
    struct Pass {
        /// The share: members whose UUID's ``UUIDTable/share(of:among:)`` is `index`.
        let index: Int
        /// The number of shares.
        let passes: Int
        /// The share's members, each UUID once.
        private var members = UUIDTable()
        /// The type number of each of ``members``, by position.
        private var types: [Int32] = []
        /// Whether a top-level UUID matched each of ``members``, by position.
        private var matched: [Bool] = []
        /// Members matched, by type number.
        private(set) var counts: [Int] = []

        /// The members the share holds.
        var memberCount: Int { types.count }

        /// An empty share `index` of `passes`, counting `typeCount` types.
        init(index: Int, passes: Int, typeCount: Int) {
            self.index = index
            self.passes = passes
            counts = Array(repeating: 0, count: typeCount)
        }

        /// Adds a member of this share (its first type kept, a UUID met again ignored).
        mutating func add(_ uuid: SampleUUID, type: Int32) {
            guard members.insert(uuid) == types.count else { return }
            types.append(type)
            matched.append(false)
        }

        /// Counts the member `uuid` names, if it is one of this share not matched before.
        mutating func visit(topLevel uuid: SampleUUID) {
            guard UUIDTable.share(of: uuid, among: passes) == index,
                let position = members.position(of: uuid), !matched[position]
            else { return }
            matched[position] = true
            counts[Int(types[position])] += 1
        }
    }

    /// The most members a share holds: about 4.5 MB of table.
    static let membersPerPass = 1 << 17
    /// Where the spill's file goes, when it needs one.
    private let storeDirectory: String
    /// The cipher the spill's file is sealed with; `nil`: in the clear.
    private let sealing: ScratchCipher?
    /// The members' records (type number as the line), made at the first member.
    private var spill: EventSpill?
    /// The types met, by number.
    private var typeNames: [String] = []
    /// The number of each type met.
    private var typeNumbers: [String: Int32] = [:]
    /// The members added (a UUID met twice counted twice).
    private(set) var count = 0
    /// The most members a share holds; tests make it small.
    private let perPass: Int

    /// No members yet; a spill, when members come, keeps its file near `storeDirectory`,
    /// sealed with `sealing` (an encrypted store's) or in the clear.
    init(near storeDirectory: String, sealing: ScratchCipher?, membersPerPass: Int = membersPerPass) {
        self.storeDirectory = storeDirectory
        self.sealing = sealing
        perPass = max(1, membersPerPass)
    }

    /// The shares the count takes the members in.
    var passes: Int { UUIDTable.shares(for: count, perShare: perPass) }

    /// Adds a correlation member.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the spill's file cannot be written.
    func add(_ uuid: SampleUUID, type: String) throws {
        let number: Int32
        if let known = typeNumbers[type] {
            number = known
        } else {
            number = Int32(typeNames.count)
            typeNames.append(type)
            typeNumbers[type] = number
        }
        if spill == nil { spill = EventSpill.forUUIDs(near: storeDirectory, sealing: sealing) }
        try spill!.add(uuid, line: withUnsafeBytes(of: number.littleEndian) { Array($0) })
        count += 1
    }

    /// Share `index` of ``passes``, its members read from the spill.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the spill's file cannot be read.
    func pass(_ index: Int) throws -> Pass {
        var pass = Pass(index: index, passes: passes, typeCount: typeNames.count)
        try spill?.forEach(progress: { _ in }, keepingChunks: true) { record in
            guard UUIDTable.share(of: record.uuid, among: pass.passes) == index, record.line.count == 4 else { return }
            pass.add(record.uuid, type: Int32(littleEndian: record.line.loadUnaligned(as: Int32.self)))
        }
        return pass
    }

    /// The members also found at top level, each UUID once, by type: `first` (share 0,
    /// already given the top-level UUIDs), then the other shares, each given the top-level
    /// UUIDs by `topLevel` (which calls its argument with each).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the spill's file cannot be read; whatever
    ///   `topLevel` throws.
    func alsoTopLevel(after first: Pass, topLevel: ((SampleUUID) -> Void) throws -> Void) throws -> [String: Int] {
        var counts = first.counts
        for index in 1..<max(1, first.passes) {
            var pass = try pass(index)
            try topLevel { pass.visit(topLevel: $0) }
            for (type, matched) in pass.counts.enumerated() { counts[type] += matched }
        }
        var out: [String: Int] = [:]
        for (type, matched) in counts.enumerated() where matched > 0 { out[typeNames[type], default: 0] += matched }
        return out
    }

    /// The members also found at top level, each UUID once, by type, the top-level UUIDs
    /// given by `topLevel` (once per share).
    ///
    /// - Throws: as ``alsoTopLevel(after:topLevel:)``.
    func alsoTopLevel(_ topLevel: ((SampleUUID) -> Void) throws -> Void) throws -> [String: Int] {
        guard count > 0 else { return [:] }
        var first = try pass(0)
        try topLevel { first.visit(topLevel: $0) }
        return try alsoTopLevel(after: first, topLevel: topLevel)
    }
}
