#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Restores a backup into a store directory, atomically, holding the target's lock from
/// its first look at the target until the new store is in place (``RestoreTarget``: the
/// writer lock of the directory there, or the ``StoreEntryLock`` of a missing one), so no
/// append and no other restore runs meanwhile. The new store is built beside the
/// target (`TARGET.restore-XXXXXX`, a ``ScratchDirectory``), every file copied and checked against the
/// manifest (``BackupSource``), the result verified like `verify` does (its derived indexes
/// rebuilt in the same pass over the log), its new timeline
/// recorded (``Timelines``), everything fsynced; only then is it put in place with one
/// rename (a missing target) or one atomic exchange with the directory there (a store or an
/// empty directory), which is then removed; writers waiting on the replaced directory's
/// lock then find the new store's (``WriterLock``). A crash
/// at any instant leaves the old store or the new one at the target; a leftover
/// `TARGET.restore-XXXXXX` beside it (half a new store, or the replaced old one, both marked
/// as such) is removed by the next restore, and nothing else beside the target is touched.
///
/// With a ``RestorePoint`` (point-in-time recovery), the copy is cut at the end of the last
/// append the point keeps (``RestoreCut``) before it is verified: what the backup holds
/// after the cut becomes discarded history like what the replaced store held after the
/// backup.
///
/// A backup of an encrypted store is restored only with a secret that opens one of the key
/// slots the backup holds (any passphrase or key file that opened the store when the backup
/// was taken): checked before anything is copied, and the new store keeps those slots.
///
/// With ``decrypts``, the copy is rewritten in the clear before it is verified
/// (``StoreDecryption``): the same store, sequence numbers and anchors, without its keys.
/// With ``encryptsWith``, the reverse (``StoreEncryption``): a plaintext backup becomes an
/// encrypted store with one key slot for that secret.
///
/// The new timeline starts above every sequence number the backup's history or the
/// replaced store (when it is the same store) ever issued, so no number is reused and
/// anchors into the discarded history are refused.
struct Restore {
    /// The backup directory.
    let backup: String
    /// The store directory restored into.
    let target: String
    /// Whether an existing store may be replaced.
    let force: Bool
    /// Where to cut the backup's log (`nil`: keep all of it).
    var point: RestorePoint?
    /// Called as files are copied and batches verified.
    var progress: ((RestoreProgress) -> Void)?
    /// The lock timeout and test faults.
    let options: StoreOptions
    /// The secret that opens a backup of an encrypted store (by the slots the backup holds).
    var keys: StoreKeys? = nil
    /// Whether the backup (of an encrypted store) is restored as a plaintext store
    /// (``StoreDecryption``).
    var decrypts = false
    /// The secret of the first key slot when the backup (of a plaintext store) is restored
    /// as an encrypted store (``StoreEncryption``); `nil` to keep it as it is.
    var encryptsWith: StoreSecret? = nil

    /// The suffix (before a random part) of the new store while it is built beside the target.
    static let temporaryInfix = ".restore-"

    /// Refuses `decrypts` for a backup of a plaintext store, `encrypts` for one of an
    /// encrypted store, and both at once (``HealthLogError/Code/badUsage``): checked before
    /// any key is asked for or opened, so bad usage is never reported as a missing key, and
    /// after the backup's manifest is read (no key needed), so a directory that is no backup is
    /// reported as that.
    static func checkUsage(backup: String, decrypts: Bool, encrypts: Bool) throws {
        if encrypts, decrypts { throw HealthLogError(.badUsage, "--encrypt and --decrypt do not go together") }
        guard encrypts || decrypts else { return }
        _ = try BackupSource(backup)
        let isEncrypted = (try? StoreMeta.read(StoreLayout(directory: backup)))?.isEncrypted == true
        if decrypts, !isEncrypted {
            throw HealthLogError(.badUsage, "\(backup) holds a plaintext store: restore it without --decrypt")
        }
        if encrypts, isEncrypted {
            throw HealthLogError(.badUsage, "\(backup) holds an encrypted store already: restore it without --encrypt")
        }
    }

    /// Runs the restore.
    func run() throws -> RestoreReport {
        guard let real = BackupTarget.resolved(target) else {
            throw HealthLogError(.io, "cannot resolve \(target): \(describeErrno(errno))", errno: errno)
        }
        let (state, lock) = try RestoreTarget.lock(real, backup: backup, force: force, timeout: options.lockTimeout)
        defer { lock.release() }
        do {
            return try run(into: real, state)
        } catch {
            // An empty directory got its `lock` from this restore: it is left as it was.
            if state == .empty, case .writer(let held) = lock, WriterLock.isLinked(held.fd, at: real + "/lock") { unlink(real + "/lock") }
            throw error
        }
    }

    /// Builds the new store beside `real` and puts it in place, holding the target's lock
    /// (see ``RestoreTarget/lock(_:backup:force:timeout:)``); `state` is what is there.
    private func run(into real: String, _ state: RestoreTarget.State) throws -> RestoreReport {
        let source = try BackupSource(backup)
        if let point { try RestoreCut.check(point, against: source) }
        try Self.checkUsage(backup: backup, decrypts: decrypts, encrypts: encryptsWith != nil)
        try Self.openKeys(of: StoreLayout(directory: backup, keys: keys))
        let material = try encryptsWith.map { secret in
            guard let material = try SecretMaterial.of(secret) else { throw HealthLogError(.badUsage, "an encrypted store needs a passphrase or a key file") }
            return material
        }
        let faults = FaultCounter(options.faults)
        var report = RestoreReport()
        report.backupHeadSeq = source.manifest.headSeq
        report.keptSeq = source.manifest.headSeq
        report.leftoversRemoved = try ScratchDirectory.removeLeftovers(beside: real, infix: Self.temporaryInfix)
        let scratch = try ScratchDirectory.make(beside: real, infix: Self.temporaryInfix)
        let temporary = scratch.path
        var built = StoreLayout(directory: temporary, keys: keys)
        do {
            (report.filesCopied, report.bytesCopied) = try source.copy(into: built) { done, total in
                progress?(RestoreProgress(stage: .copying, done: done, total: total))
            }
            faults.reach(.restoreCopied)
            if let point {
                let cut = try RestoreCut.find(point, in: built)
                try cut.refuseKeepingNothing(point, backup: backup)
                try cut.apply(to: built)
                report.keptSeq = cut.keptSeq
                faults.reach(.restoreCut)
            }
            if decrypts { try StoreDecryption(layout: built, faults: faults).run() }
            if let material {
                let cost = options.faults.weakKeyDerivation ? Argon2id.Cost.weakest : .standard
                let cipher = try StoreEncryption(layout: built, material: material, cost: cost, cipher: options.cipher ?? .preferred, faults: faults).run()
                built = StoreLayout(directory: temporary, keys: StoreKeys(cipher: cipher))
            }
            try verify(built, source, keptSeq: report.keptSeq)
            faults.reach(.restoreVerified)
            let old = state == .store ? StoreLayout(directory: real) : nil
            (report.firstSeq, report.keptUnused) = try startTimeline(in: built, source.manifest, keptSeq: report.keptSeq, replacing: old)
            try DurableFile.syncDirectory(built.segments)
            if FileDescriptor.exists(built.keySlots) { try DurableFile.syncDirectory(built.keySlots) }
            try DurableFile.syncDirectory(temporary)
            faults.reach(.restoreSynced)
            try scratch.unmark()
            if state == .missing {
                _ = try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, real) }
            } else {
                // Marked before the swap, so a crash right after it leaves the replaced
                // directory as a leftover the next restore removes.
                try ScratchDirectory.mark(real)
                do {
                    try DirectorySwap.exchange(temporary, real)
                } catch {
                    ScratchDirectory.unmark(real)
                    throw error
                }
            }
        } catch {
            try? scratch.remove()
            throw error
        }
        scratch.release()
        faults.reach(.restoreSwapped)
        try DurableFile.syncDirectory(containing: real)
        if state != .missing { try DirectoryTree.remove(temporary) }
        report.replacedStore = state == .store
        return report
    }

    /// Opens the keys of the backup at `layout` when its store is encrypted, so a missing or
    /// wrong secret is refused (``HealthLogError/Code/keyRequired``,
    /// ``HealthLogError/Code/wrongKey``) before anything is written. The keys stay open on
    /// `layout`'s ``StoreKeys`` for the store built from the backup, whose slots are the
    /// backup's, checked against the manifest as they are copied.
    /// A meta that does not read is left to the copy, which refuses it against the manifest.
    static func openKeys(of layout: StoreLayout) throws {
        guard let meta = try? StoreMeta.read(layout), meta.isEncrypted else { return }
        _ = try layout.cipher(meta)
    }

    /// Checks the store built at `layout`: the backup's store, sound, ending at `keptSeq`
    /// (the backup's head, or the cut of a point-in-time restore).
    private func verify(_ layout: StoreLayout, _ source: BackupSource, keptSeq: UInt64) throws {
        let meta = try StoreMeta.read(layout)
        guard meta.storeID == source.manifest.storeID else {
            throw HealthLogError(.corrupt, "\(backup): its meta names store \(meta.storeID.text), its manifest \(source.manifest.storeID.text); the backup cannot be trusted")
        }
        let progress = progress
        // A backup holds the log and the sealed segments' indexes, not the rest derived from
        // the log: rebuilt in the same pass, so the restored store answers queries from its
        // indexes at once and verifies clean.
        var verifier = Verifier(layout: layout, progress: { done, total in progress?(RestoreProgress(stage: .verifying, done: done, total: total)) })
        verifier.rebuildsIndexes = true
        let check = try verifier.run()
        progress?(RestoreProgress(stage: .verifying, done: check.batches, total: check.batches))
        let expected = keptSeq == source.manifest.headSeq ? "its manifest says \(keptSeq)" : "the cut is at \(keptSeq)"
        guard check.isSound, check.headSeq == keptSeq else {
            throw HealthLogError(.corrupt, "the backup in \(backup) fails verification: \(check.problems.first ?? "it ends at sequence \(check.headSeq), \(expected)")")
        }
    }

    /// How many numbers a restore skips when the store the backup came from is not at the
    /// target (a lost disk): that store may have issued numbers after the backup, and none
    /// of them may be issued again, so the new timeline starts this far above the backup's.
    static let unknownHistoryGap: UInt64 = 1 << 32

    /// Records the new timeline, kept from `keptSeq`, in the store built at `layout` and
    /// returns its first sequence number: above the backup's head and every number its
    /// timelines record, and, when `old` is the same store, above everything `old` issued;
    /// when it is not (the store was lost), ``unknownHistoryGap`` above the backup's, those
    /// numbers returned as the ones kept unused. The
    /// backup's own starts past `keptSeq` (a backup taken right after a restore, or a
    /// point-in-time cut before an earlier restore's timeline began) are folded into the
    /// new one: their numbers all lie in its discarded range.
    private func startTimeline(
        in layout: StoreLayout, _ manifest: BackupManifest, keptSeq: UInt64, replacing old: StoreLayout?
    ) throws -> (first: UInt64, unused: ClosedRange<UInt64>?) {
        let kept = try Timelines.read(layout)
        var first = kept.nextSeq(head: manifest.headSeq)
        var unused: ClosedRange<UInt64>?
        if let old, let meta = try? StoreMeta.read(old), meta.storeID == manifest.storeID {
            first = max(first, Self.nextSeq(of: old))
            try Self.carryGenerations(into: layout, replacing: (try? Compactions.read(old)) ?? Compactions())
        } else {
            unused = first...(first + Self.unknownHistoryGap - 1)
            first += Self.unknownHistoryGap
            try Self.carryGenerations(into: layout, replacing: Compactions())
        }
        var timelines = Timelines(starts: kept.starts.filter { $0.firstSeq <= keptSeq })
        timelines.starts.append(Timelines.Start(id: StoreID.random(), firstSeq: first, keptSeq: keptSeq, createdMillis: Clock.nowMillis()))
        try timelines.write(layout)
        return (first, unused)
    }

    /// Writes the compactions record of the store built at `layout` so that no later
    /// compaction reuses a generation an anchor issued before the restore carries, and no
    /// such anchor counts as having seen the backup's compactions
    /// (``Compactions/restored(replacing:now:)``); `replaced` is the replaced store's record
    /// (empty when it is unknown: a lost disk, another store, a damaged record).
    private static func carryGenerations(into layout: StoreLayout, replacing replaced: Compactions) throws {
        let backup = try Compactions.read(layout)
        let restored = backup.restored(replacing: replaced, now: Clock.nowMillis())
        if restored != backup { try restored.write(layout) }
    }

    /// The number the store at `layout` would issue next, read without its key (an
    /// encrypted store's sequence numbers are in clear). A damaged store is judged by what
    /// survives of it: its checkpoint, its newest segment's name and its timelines.
    private static func nextSeq(of layout: StoreLayout) -> UInt64 {
        if let snapshot = try? LogSnapshot(layout, keyless: true) { return snapshot.timelines.nextSeq(head: snapshot.headSeq) }
        let acknowledged = (try? Checkpoint.read(layout))??.seq ?? 0
        let newest = (try? layout.listSegments())?.last?.baseSeq ?? 0
        let timelines = (try? Timelines.read(layout)) ?? Timelines()
        return timelines.nextSeq(head: max(acknowledged, newest))
    }
}
