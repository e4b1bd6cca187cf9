import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Anchor rules 7 (restore) and 8 (compaction) together, against a model: random appends,
/// deletes, backups into two directories, restores of either over the store (whole, `--to`
/// an anchor issued while that backup's history was current, mid-append ones included,
/// and `--to` a date) and compactions (horizon an anchor or a date). After every step every
/// anchor ever issued, and 0, either replays exactly the model's events after it in
/// HealthKit's view or is refused exactly when the model says it names discarded or
/// expired history; the head, the timelines, the next number and `verify` match the model,
/// and a UUID the current history used (compacted ones too) is refused when added again,
/// while one used only in discarded history can be added. An anchor is judged by what it
/// names, not by the store's numbers: its position is the issuing history's sequence
/// numbers up to it (valid where the current history has the same ones), and it expires
/// when the current history holds a compaction it had not seen with a horizon above it. A
/// restore adds one such compaction at the backup's highest horizon (see
/// `Compactions.restored(replacing:now:)`). The seeds are among those that found the bugs
/// fixed with this test (RestoreCompactionTests, BackupAfterRestoreTests).
@Suite("Timelines and expiry against a model")
struct TimelineModelTests {
    @Test("Random appends, deletes, backups, restores and compactions keep every anchor ever issued as the model says", arguments: [5, 6, 10, 11, 13, 14] as [UInt64])
    func randomSteps(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var run = try TimelineRun(dir: dir)
        var random = SeededRandom(state: seed)
        for step in 0..<36 {
            let roll = step < 3 ? 0 : random.int(0...99)
            switch roll {
            case 0..<40: try run.append(&random)
            case 40..<50: try run.delete(&random)
            case 50..<65: try run.backup(&random)
            case 65..<82: try run.restore(&random)
            default: try run.compact(&random)
            }
            try run.check(&random, step: step)
        }
        #expect(run.seen.restores > 0 && run.seen.compactions > 0, "the seed restored and compacted: \(run.seen)")
    }

    @Test(
        "The same with an encrypted store, key rotations, rekeys, and restores that encrypt or decrypt: content, numbers, anchors and the encryption state stay as the model says",
        arguments: [5, 11, 21] as [UInt64])
    func randomEncryptedSteps(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var run = try TimelineRun(dir: dir, secret: .passphrase(Array("model secret".utf8)))
        var random = SeededRandom(state: seed)
        for step in 0..<36 {
            let roll = step < 3 ? 0 : random.int(0...99)
            switch roll {
            case 0..<32: try run.append(&random)
            case 32..<40: try run.delete(&random)
            case 40..<52: try run.backup(&random)
            case 52..<68: try run.restore(&random)
            case 68..<78: try run.compact(&random)
            case 78..<89: try run.rotate(&random)
            default: try run.rekey(&random)
            }
            try run.check(&random, step: step)
        }
        #expect(run.seen.restores > 0 && run.seen.rotations > 0 && run.seen.rekeys > 0, "the seed restored, rotated and rekeyed: \(run.seen)")
    }
}

/// One model run: the store, its two backup directories and what the model expects.
struct TimelineRun {
    /// What the run did, so a seed that exercised nothing shows.
    struct Seen: CustomStringConvertible {
        /// Restores (those `--to` a point), committed compactions, and refusals checked.
        var restores = 0, restoresTo = 0, compactions = 0, discarded = 0, expired = 0
        /// Key rotations, rekeys that rewrote something, and restores that encrypted or decrypted.
        var rotations = 0, rekeys = 0, encrypted = 0, decrypted = 0
        /// The counts, for the message of a seed that exercised too little.
        var description: String {
            "restores \(restores) (to \(restoresTo), encrypting \(encrypted), decrypting \(decrypted)), compactions \(compactions), rotations \(rotations), rekeys \(rekeys), refusals discarded \(discarded) expired \(expired)"
        }
    }

    /// The store under test: a new handle after each restore, as a new command would open.
    var store: HealthStore
    /// The store's directory and the options of every handle on it.
    let path: String, options: StoreOptions
    /// The secret of an encrypted run (`nil`: plaintext, and no key steps).
    let secret: StoreSecret?
    /// Whether the store is encrypted now, and the key epoch it seals under.
    var encrypted = false, epoch: UInt32 = 0
    /// Whether each backup directory holds an encrypted store, and its epoch.
    var backupKeys: [(encrypted: Bool, epoch: UInt32)] = [(false, 0), (false, 0)]
    /// The two backup directories.
    let backupDirs: [String]
    /// The history each backup directory holds, once taken.
    var backups: [ModelHistory?] = [nil, nil]
    /// The store's current history.
    var history = ModelHistory()
    /// Every anchor the store issued, in every history.
    var anchors: [IssuedAnchor] = []
    /// The highest sequence number ever issued.
    var maxIssued: UInt64 = 0
    /// Every sample number ever added, in any history.
    var everUsed = Set<Int>()
    /// The next new sample number.
    var nextSample = 1
    /// The next model-wide compaction id.
    var nextCompaction = 1
    /// The store's tag, once known.
    var tag: UInt64 = 0
    /// What the run did.
    var seen = Seen()

    /// A store with small batches and segments (appends span both) and unsynced writes;
    /// with `secret`, made encrypted with it (cheap passphrase slots).
    init(dir: TemporaryDirectory, secret: StoreSecret? = nil) throws {
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 1_200
        options.segmentBytes = 5_000
        options.faults.weakKeyDerivation = secret != nil
        path = dir.file("store")
        self.options = options
        self.secret = secret
        if let secret {
            try HealthStore(directory: path, options: options).create(encryptedWith: secret)
            encrypted = true
        }
        store = Self.handle(path, secret, options)
        backupDirs = [dir.file("backup-a"), dir.file("backup-b")]
    }

    /// A new handle on the store at `path`, with `secret` when there is one.
    static func handle(_ path: String, _ secret: StoreSecret?, _ options: StoreOptions) -> HealthStore {
        secret.map { HealthStore(directory: path, secret: $0, options: options) } ?? HealthStore(directory: path, options: options)
    }

    /// Records `anchor` as issued in the current history.
    mutating func issue(_ anchor: QueryAnchor, _ origin: String) {
        #expect(anchor.generation == UInt32(history.compactions.count), "\(origin): generation")
        anchors.append(IssuedAnchor(anchor: anchor, prefix: history.prefix(through: anchor.seq), knownCompactions: Set(history.compactions.map(\.id)), origin: origin))
    }

    /// An append of new samples (and now and then one used only in discarded history), with
    /// deletes of live ones; issues its anchor and one inside it.
    mutating func append(_ random: inout SeededRandom) throws {
        var adds = Array(nextSample..<nextSample + random.int(1...24))
        nextSample += adds.count
        let discardedOnly = everUsed.subtracting(history.usedSamples).sorted()
        if !discardedOnly.isEmpty, random.chance(40) { adds.append(random.pick(discardedOnly)) }
        var live = history.live.sorted()
        var deletes: [Int] = []
        for _ in 0..<random.int(0...min(4, live.count)) { deletes.append(live.remove(at: random.int(0...live.count - 1))) }
        let store = store
        try commit(adds: adds, deletes: deletes, &random) { try store.append(ndjson: TimelineLines.ndjson(adds: adds, deletes: deletes)).anchor }
    }

    /// Deletes of live samples through `delete(_:)`.
    mutating func delete(_ random: inout SeededRandom) throws {
        var live = history.live.sorted()
        guard !live.isEmpty else { return try append(&random) }
        var deletes: [Int] = []
        for _ in 0..<random.int(1...min(6, live.count)) { deletes.append(live.remove(at: random.int(0...live.count - 1))) }
        let uuids = deletes.map { SampleUUID(TimelineLines.uuid($0))! }
        let store = store
        try commit(adds: [], deletes: deletes, &random) { try store.delete(uuids) }
    }

    /// Runs one append of `adds` then `deletes`, checks its numbers and records it.
    mutating func commit(adds: [Int], deletes: [Int], _ random: inout SeededRandom, _ write: () throws -> QueryAnchor) throws {
        PointInTimeFixture.waitForNextMillisecond()
        let before = QueryAnchor(seq: history.head, storeTag: tag == 0 ? nil : tag, generation: UInt32(history.compactions.count))
        let anchor = try write()
        if tag == 0 { tag = anchor.storeTag ?? 0 }
        let events = adds.map { ModelHistory.Event(isDelete: false, sample: $0) } + deletes.map { ModelHistory.Event(isDelete: true, sample: $0) }
        #expect(anchor.seq == maxIssued + UInt64(events.count), "the append's first number is above every number ever issued (\(maxIssued))")
        history.append(events, first: maxIssued + 1, millis: try PointInTimeFixture.lastAppendMillis(store), committed: try PointInTimeFixture.lastCommitMillis(store))
        maxIssued += UInt64(events.count)
        everUsed.formUnion(adds)
        issue(anchor, "append to \(anchor.seq)")
        if events.count > 1 {
            let inside = try store.replay(ReplayRequest(anchor: before.storeTag == nil ? .beginning : before, limit: random.int(1...events.count - 1), raw: true)) { _ in }
            issue(inside.newAnchor, "inside the append to \(anchor.seq)")
        }
    }

    /// A backup into one of the two directories.
    mutating func backup(_ random: inout SeededRandom) throws {
        let which = random.int(0...1)
        // A backup needs no key: taken with a handle given none.
        _ = try HealthStore(directory: path, options: options).backup(to: backupDirs[which])
        backups[which] = history
        backupKeys[which] = (encrypted, epoch)
    }

    /// A restore of one backup over the store: whole, to an anchor or to a date.
    mutating func restore(_ random: inout SeededRandom) throws {
        let which = [0, 1].filter { backups[$0] != nil }
        guard !which.isEmpty else { return try backup(&random) }
        let index = random.pick(which)
        let backup = backups[index]!
        var restored = backup
        var point: RestorePoint?
        let candidates = anchors.filter { $0.anchor.seq > 0 && $0.refusal(in: backup).map { !$0.contains("discarded") && !$0.contains("past the store's head") } ?? true }
        switch random.int(0...2) {
        case 1 where !candidates.isEmpty:
            let chosen = random.pick(candidates).anchor
            let keeping = backup.appends.filter { $0.last <= chosen.seq }.count
            // An anchor inside the first append keeps nothing and is refused; the anchor 0 asks for that.
            point = .anchor(keeping == 0 ? QueryAnchor(fromValue: 0) : chosen)
            restored = backup.cut(keeping: keeping)
        case 2 where !backup.appends.isEmpty:
            let append = random.pick(backup.appends)
            let millis = append.cutMillis - Int64(random.int(0...1))
            let keeping = backup.appends.filter { $0.cutMillis <= millis }.count
            // A date that keeps nothing is refused; the anchor 0 asks for that.
            point = keeping == 0 ? .anchor(QueryAnchor(fromValue: 0)) : .date(Timestamp(microseconds: millis * 1000))
            restored = backup.cut(keeping: keeping)
        default: break
        }
        // The backup's starts past the kept seq (it was taken right after a restore) fold
        // into the new one.
        let kept = restored.head
        restored.starts = restored.starts.filter { $0.first <= kept } + [(kept, maxIssued + 1)]
        carryGenerations(into: &restored)
        let keys = backupKeys[index]
        let decrypting = secret != nil && keys.encrypted && random.chance(40)
        let encrypting = secret != nil && !keys.encrypted && random.chance(60)
        // A new handle opens the backup's key slots (its epochs), not keys kept from the store.
        store = Self.handle(path, secret, options)
        _ = try store.restore(from: backupDirs[index], force: true, to: point, decrypting: decrypting, encryptingWith: encrypting ? secret : nil)
        store = Self.handle(path, secret, options)
        (encrypted, epoch) = decrypting ? (false, 0) : encrypting ? (true, 0) : keys
        if decrypting { seen.decrypted += 1 }
        if encrypting { seen.encrypted += 1 }
        history = restored
        seen.restores += 1
        if point != nil { seen.restoresTo += 1 }
        issue(try store.headAnchor(), "head after restore \(seen.restores)")
    }

    /// What a restore does to the compactions record: empty ones up to the replaced store's
    /// generation, then, when the backup's record dropped anything, one at its highest
    /// horizon that no anchor issued before the restore has seen.
    mutating func carryGenerations(into restored: inout ModelHistory) {
        let horizon = restored.compactions.map(\.horizon).max() ?? 0
        while restored.compactions.count < history.compactions.count {
            restored.compactions.append((nextCompaction, 0))
            nextCompaction += 1
        }
        if horizon > 0 {
            restored.compactions.append((nextCompaction, horizon))
            nextCompaction += 1
        }
    }

    /// A compaction with the horizon at a valid anchor or at a date; issues a resync anchor.
    mutating func compact(_ random: inout SeededRandom) throws {
        let valid = anchors.filter { $0.anchor.seq > 0 && $0.refusal(in: history) == nil }
        let horizon: CompactionHorizon
        let horizonSeq: UInt64
        if random.chance(50), !valid.isEmpty {
            let chosen = random.pick(valid).anchor
            horizon = .anchor(chosen)
            horizonSeq = chosen.seq
        } else if let append = history.appends.isEmpty ? nil : random.pick(history.appends) {
            let millis = append.millis + Int64(random.int(0...1))
            horizon = .date(Timestamp(microseconds: millis * 1000))
            horizonSeq = history.appends.filter { $0.millis < millis }.last?.last ?? 0
        } else {
            return try append(&random)
        }
        let dropped = history.compact(horizon: horizonSeq, id: nextCompaction)
        let report = try store.compact(horizon: horizon)
        #expect(report.deletesDropped == dropped && (report.generation > 0) == (dropped > 0), "compaction at \(horizonSeq): \(report)")
        if dropped > 0 {
            nextCompaction += 1
            seen.compactions += 1
            #expect(report.horizonSeq == horizonSeq && report.generation == UInt32(history.compactions.count))
        }
        let resync = try store.replay(ReplayRequest(anchor: .beginning, limit: random.int(1...8))) { _ in }
        issue(resync.newAnchor, "resync after compaction at \(horizonSeq)")
    }

    /// A key rotation of an encrypted store (an append otherwise): the next epoch.
    mutating func rotate(_ random: inout SeededRandom) throws {
        guard encrypted else { return try append(&random) }
        let rotated = try store.rotateKey()
        #expect(rotated > epoch, "rotation to \(rotated) from \(epoch)")
        epoch = rotated
        seen.rotations += 1
    }

    /// `compact --rekey` of an encrypted store (an append otherwise): it rewrites exactly
    /// when a batch is sealed under an older epoch, commits an entry that drops nothing, and
    /// leaves every batch and every slot under the current epoch.
    mutating func rekey(_ random: inout SeededRandom) throws {
        guard encrypted else { return try append(&random) }
        var stale = try store.keySlots().batchesByEpoch.keys.contains { $0 != epoch }
        if !stale, random.chance(70) {
            try rotate(&random)
            stale = try !store.keySlots().batchesByEpoch.isEmpty
        }
        let report = try store.rekey()
        #expect((report.generation > 0) == stale && report.eventsDropped == 0, "rekey: \(report)")
        if report.generation > 0 {
            history.compactions.append((nextCompaction, 0))
            nextCompaction += 1
            seen.rekeys += 1
        }
        let listing = try store.keySlots()
        #expect(Set(listing.batchesByEpoch.keys).isSubset(of: [epoch]) && listing.currentEpoch == epoch, "after rekey: \(listing.batchesByEpoch)")
        #expect(listing.slots.allSatisfy { $0.epochs == [epoch] }, "older epochs stay in the slots")
    }

    /// The store is encrypted exactly when the model says: then it has key slots and a
    /// handle without the key is refused; otherwise it has none.
    func checkEncryption(step: Int) throws {
        #expect(try StoreMeta.read(store.layout).isEncrypted == encrypted, "step \(step): encrypted \(encrypted)")
        #expect(FileManager.default.fileExists(atPath: path + "/keys") == encrypted, "step \(step): key slots")
        guard encrypted else { return }
        let keyless = HealthStore(directory: path, options: options)
        #expect(throws: HealthLogError.self, "step \(step): read without the key") { try Self.view(keyless, from: .beginning) }
    }

    /// Every check the model makes after a step.
    mutating func check(_ random: inout SeededRandom, step: Int) throws {
        if secret != nil { try checkEncryption(step: step) }
        let head = try store.headAnchor()
        #expect(head.seq == history.head && head.generation == UInt32(history.compactions.count), "step \(step): head \(head.seq) vs \(history.head)")
        let starts = try PointInTimeFixture.starts(store)
        #expect(starts == history.starts.map { [$0.kept, $0.first] }, "step \(step): timelines \(starts) vs \(history.starts)")
        let report = try store.verify()
        #expect(report.isSound && report.events == UInt64(history.events.count) && report.headSeq == history.head, "step \(step): \(report.problems)")
        try checkAnchors(step: step)
        try checkReuse(&random, step: step)
    }

    /// Replays from every anchor ever issued (once per distinct token) and from 0.
    mutating func checkAnchors(step: Int) throws {
        #expect(try Self.view(store, from: .beginning) == Self.text(history.view(after: 0)), "step \(step): from 0")
        var outcomes: [String: Result<[String], HealthLogError>] = [:]
        for issued in anchors {
            let token = issued.anchor.token
            if outcomes[token] == nil {
                do { outcomes[token] = .success(try Self.view(store, from: issued.anchor)) } catch let error as HealthLogError { outcomes[token] = .failure(error) }
            }
            switch (outcomes[token]!, issued.refusal(in: history)) {
            case (.success(let lines), nil):
                #expect(lines == Self.text(history.view(after: issued.anchor.seq)), "step \(step): \(issued.origin)")
            case (.failure(let error), let reasons?):
                #expect(error.code == .anchorRefused && reasons.contains { error.message.contains($0) }, "step \(step): \(issued.origin): \(reasons) but \(error.message)")
                if reasons.contains("discarded") { seen.discarded += 1 } else { seen.expired += 1 }
            case (.success, let reasons?):
                Issue.record("step \(step): \(issued.origin) (seq \(issued.anchor.seq), generation \(issued.anchor.generation)) should be refused as \(reasons)")
            case (.failure(let error), nil):
                Issue.record("step \(step): \(issued.origin) (seq \(issued.anchor.seq)) refused: \(error.message)")
            }
        }
    }

    /// A UUID the current history used (a compacted one when there is one) is refused.
    func checkReuse(_ random: inout SeededRandom, step: Int) throws {
        let used = history.usedSamples
        guard !used.isEmpty else { return }
        let compacted = used.subtracting(history.events.values.map(\.sample)).sorted()
        let sample = random.chance(50) && !compacted.isEmpty ? random.pick(compacted) : random.pick(used.sorted())
        let refused = #expect(throws: HealthLogError.self) { try store.append(ndjson: TimelineLines.ndjson(adds: [sample], deletes: [])) }
        #expect(refused?.code == .badInput, "step \(step): sample \(sample) re-added: \(refused?.message ?? "")")
        #expect(try store.headAnchor().seq == history.head)
    }

    /// The model's view as (seq, op, sample) text.
    static func text(_ view: [(UInt64, Bool, Int)]) -> [String] { view.map { "\($0.0) \($0.1 ? "delete" : "add") \($0.2)" } }

    /// The store's HealthKit-view replay from `anchor`, in the same text.
    static func view(_ store: HealthStore, from anchor: QueryAnchor) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(anchor: anchor)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return text(out.map(TimelineLines.parse))
    }
}
