#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Salvage without a backup (`recover`): copies every readable event of a damaged store
/// into a new store and reports the acknowledged sequence numbers it could not read.
/// Memory holds a window of one segment file and the place and sequence numbers of each
/// sound batch, not the log nor its batch tables.
///
/// The damaged store is only read (no lock, no cut, nothing written). Every segment file is
/// walked batch by batch (``RecoverScan``), whatever its name, header or neighbours say, so
/// a flipped byte, a zeroed region, a truncated or deleted segment or a garbage header
/// costs only the batches it touches. The store's identity comes from `meta`, or, when that
/// is unreadable, from the segment headers (the one most of them name). The new store is
/// the same store: same identity, every event under its original sequence number, each
/// lost range recorded as a timeline gap (``RecoverPlan``), so clients' anchors keep
/// working and an anchor inside a lost range is refused with the advice to resync. It is
/// built beside the destination (`DEST.recover-XXXXXX`, 0700), indexed, verified, and put
/// in place with one rename; the destination must be missing (it is then held with its
/// ``StoreEntryLock`` throughout) or an empty directory.
///
/// An encrypted store needs its key (the source layout's) and stays encrypted: every
/// salvaged batch is sealed again for its new place, and the key slots are copied, so the
/// same passphrases open the new store. When `meta` is unreadable, a batch header flagged
/// sealed tells that the store is encrypted.
struct Recover {
    /// The damaged store.
    let source: StoreLayout
    /// Where the new store goes.
    let destination: String
    /// The new store's segment size (``StoreOptions/segmentBytes``).
    var segmentBytes = FormatConstants.defaultSegmentBytes
    /// How long to wait for a missing destination's creation lock (``StoreOptions/lockTimeout``).
    var lockTimeout = StoreOptions().lockTimeout

    /// The suffix (before a random part) of the new store while it is built.
    static let temporaryInfix = ".recover-"

    /// Runs the salvage.
    func run() throws -> RecoverReport {
        var target = try checkDestination()
        // A missing destination is put in place holding its creation lock, so a writer, an
        // import or a restore creating it meanwhile waits; checked again under the lock.
        let entry = FileDescriptor.exists(target) ? nil : try StoreEntryLock.acquire(for: target, timeout: lockTimeout)
        defer { entry?.release() }
        if entry != nil { target = try checkDestination() }
        try SpecialFileCheck.refuse(in: source.directory)
        var report = RecoverReport()
        let files = try listSegments(&report)
        let (storeID, meta) = try identity(files, &report)
        guard let decoder = try? LZ4FrameDecoder() else { throw HealthLogError(.io, "cannot create an LZ4 decompression context") }
        var cipher = try meta.flatMap { try source.cipher($0) }
        var scanned = scan(files, storeID: storeID, cipher: cipher, stoppingAtSealed: cipher == nil, decoder: decoder)
        if scanned.stoppedAtSealed {
            // meta is unreadable or says plaintext, and batches of this store are sealed:
            // an encrypted store, whose key is needed.
            cipher = try source.cipher(StoreMeta.new(storeID, encrypted: true))
            scanned = scan(files, storeID: storeID, cipher: cipher, stoppingAtSealed: false, decoder: decoder)
        }
        let (found, issued) = (scanned.found, scanned.issued)
        report.unreadable = scanned.unreadable
        report.notes += scanned.notes
        let acknowledged = checkpoint(&report)
        let timelines = sourceTimelines(&report)
        let plan = RecoverPlan(
            found, acknowledged: acknowledged, issued: max(issued, acknowledged ?? 0), source: timelines, timelineID: StoreID.random(), now: Clock.nowMillis())
        report.lost = plan.lost
        report.discarded = plan.discarded
        for range in plan.discarded {
            report.notes.append(
                "sequence \(range.lowerBound)-\(range.upperBound) is history an earlier restore discarded, not lost: the batches on either side are stored one right after the other")
        }
        report.tornTail = plan.torn
        report.duplicates = plan.duplicates
        report.headSeq = plan.batches.last?.lastSeq ?? 0
        report.events = plan.batches.reduce(0) { $0 + $1.events }
        try build(plan, storeID: storeID, cipher: cipher, at: target, headSeq: report.headSeq, &report)
        return report
    }

    /// What the walk of every segment found.
    private struct Scanned {
        /// The sound batches, in file order.
        var found: [RecoverScan.SoundBatch] = []
        /// The unreadable byte ranges.
        var unreadable: [RecoverReport.Unreadable] = []
        /// The highest sequence number anything in the segments names.
        var issued: UInt64 = 0
        /// Files that could not be read.
        var notes: [String] = []
        /// Whether the walk stopped at a sealed batch header it had no cipher for.
        var stoppedAtSealed = false
    }

    /// Walks every segment (``RecoverScan``), opening sealed batches with `cipher`. With
    /// `stoppingAtSealed`, stops at the first sealed batch header found with no cipher.
    private func scan(_ files: [SegmentName], storeID: StoreID, cipher: StoreCipher?, stoppingAtSealed: Bool, decoder: LZ4FrameDecoder) -> Scanned {
        var scanned = Scanned()
        for name in files {
            guard let file = read(name, &scanned.notes) else {
                // As an empty file: its header is incomplete.
                scanned.unreadable.append(RecoverReport.Unreadable(file: "segments/" + name.fileName, offset: 0, length: 0, reason: "segment header is incomplete", seqs: nil))
                scanned.issued = max(scanned.issued, name.baseSeq)
                continue
            }
            let path = source.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            let scan = RecoverScan(
                file.bytes, name: file.name, file: "segments/" + file.name.fileName, path: path, storeTag: storeID.tag, cipher: cipher, decoder: decoder)
            if stoppingAtSealed, scan.foundSealedWithoutKey {
                scanned.stoppedAtSealed = true
                return scanned
            }
            scanned.found += scan.batches
            scanned.unreadable += scan.unreadable.map {
                RecoverReport.Unreadable(file: $0.file, offset: $0.offset, length: $0.length, reason: $0.reason, seqs: $0.seqs)
            }
            if file.bytes.count < file.bytes.size {
                // Bytes that could not be read are damage the report names, never a clean end.
                scanned.unreadable.append(RecoverReport.Unreadable(
                    file: "segments/" + file.name.fileName, offset: file.bytes.count, length: file.bytes.size - file.bytes.count,
                    reason: "cannot be read: \(file.bytes.failure ?? "the file ended before its length")", seqs: nil))
            }
            scanned.issued = max(
                scanned.issued, file.name.baseSeq, scan.batches.last?.lastSeq ?? 0, scan.unreadable.compactMap(\.seqs?.upperBound).max() ?? 0)
        }
        return scanned
    }

    /// Refuses a destination that exists and is not an empty directory, or that is the
    /// store or lies inside it (``HealthLogError/Code/badUsage``); returns its real path.
    private func checkDestination() throws -> String {
        try BackupTarget.check(destination, store: source.directory)
        guard let real = BackupTarget.resolved(destination) else {
            throw HealthLogError(.io, "cannot resolve \(destination): \(describeErrno(errno))", errno: errno)
        }
        if FileDescriptor.exists(real), !(try DirectoryListing.names(in: real, isNamedByUser: true)).isEmpty {
            throw HealthLogError(.badUsage, "\(destination) is not empty; recover into a new or empty directory")
        }
        return real
    }

    /// One segment file's name and bytes.
    private struct SegmentBytes {
        var name: SegmentName
        var bytes: SegmentWindow
    }

    /// The segment files, in order; none (and a note) when `segments/` cannot be listed.
    private func listSegments(_ report: inout RecoverReport) throws -> [SegmentName] {
        guard FileDescriptor.exists(source.meta) || FileDescriptor.exists(source.segments) else {
            throw HealthLogError(.noStore, "no healthlog store at \(source.directory)")
        }
        do {
            let names = try source.listSegments()
            // A compacted store: the generations its compactions file committed, not the
            // files they superseded (without a readable file, every one, deduplicated later).
            guard let compactions = try? Compactions.read(source), compactions.generation > 0 else { return names }
            return compactions.current(names)
        } catch let error as HealthLogError where error.code != .unsafeFile {
            report.notes.append("segments/ cannot be listed (\(error.message)); no event could be read")
            return []
        }
    }

    /// Opens segment `name` for reading a window at a time (``SegmentWindow``: memory holds
    /// a window, not the segment); one that cannot be opened is a note and counts as empty.
    private func read(_ name: SegmentName, _ notes: inout [String]) -> SegmentBytes? {
        let path = source.segment(baseSeq: name.baseSeq, generation: name.generation)
        do {
            let fd = try FileDescriptor.open(path, flags: O_RDONLY)
            do {
                return SegmentBytes(name: name, bytes: SegmentWindow(fd, count: try fd.size()))
            } catch {
                fd.close()
                throw error
            }
        } catch let error as HealthLogError {
            notes.append("segments/\(name.fileName) cannot be read: \(error.message)")
        } catch {
            notes.append("segments/\(name.fileName) cannot be read")
        }
        return nil
    }

    /// The store's identity and `meta`: `meta`'s, else (`meta` unreadable, `nil`) the one
    /// most segment headers name.
    private func identity(_ files: [SegmentName], _ report: inout RecoverReport) throws -> (StoreID, StoreMeta?) {
        var named: [StoreID: Int] = [:]
        for name in files {
            let path = source.segment(baseSeq: name.baseSeq, generation: name.generation)
            guard let fd = try? FileDescriptor.open(path, flags: O_RDONLY) else { continue }
            defer { fd.close() }
            guard let bytes = try? fd.read(at: 0, count: SegmentLayout.prologueLength), RecoverScan.prologueProblem(bytes) == nil,
                let header = try? SegmentHeader.decode(Array(bytes[LZ4Frame.emptyFrame.count...]))
            else { continue }
            named[header.storeID, default: 0] += 1
        }
        do {
            let meta = try StoreMeta.read(source)
            if let other = named.keys.first(where: { $0 != meta.storeID }) {
                report.notes.append("a segment header names store \(other.text); meta's identity \(meta.storeID.text) is kept and that segment's batches are not this store's")
            }
            return (meta.storeID, meta)
        } catch let error as HealthLogError where error.code == .corrupt || error.code == .noStore {
            guard let best = named.max(by: { ($0.value, $0.key.text) < ($1.value, $1.key.text) })?.key else {
                throw HealthLogError(.corrupt, "\(source.directory): meta is unreadable (\(error.message)) and no segment header is sound, so the store's identity is unknown")
            }
            report.notes.append("meta is unreadable (\(error.message)); the store's identity \(best.text) comes from \(named[best] ?? 0) segment header(s)")
            return (best, nil)
        }
    }

    /// The checkpoint's sequence number, when it can be read.
    private func checkpoint(_ report: inout RecoverReport) -> UInt64? {
        do {
            return try Checkpoint.read(source)?.seq
        } catch let error as HealthLogError {
            report.notes.append("checkpoint is unreadable (\(error.message.prefix(60))…); appends that did not finish cannot be told from lost ones, so readable batches after the last finished append are left out")
            return nil
        } catch {
            return nil
        }
    }

    /// The damaged store's timelines, or none when the file is unreadable (its gaps then
    /// count as lost).
    private func sourceTimelines(_ report: inout RecoverReport) -> Timelines {
        do {
            return try Timelines.read(source)
        } catch {
            report.notes.append(
                "timelines is unreadable; a restore's jump between two batches stored one right after the other is taken as discarded history, any other gap as lost")
            return Timelines()
        }
    }

    /// Writes the plan into a new directory beside `target` (a ``ScratchDirectory``, after
    /// removing those of killed salvages, noted in `report`), encrypted with `cipher` when
    /// given, indexes and verifies it (with the source's keys), and renames it into place.
    private func build(_ plan: RecoverPlan, storeID: StoreID, cipher: StoreCipher?, at target: String, headSeq: UInt64, _ report: inout RecoverReport) throws {
        for leftover in try ScratchDirectory.removeLeftovers(beside: target, infix: Self.temporaryInfix) {
            report.notes.append("removed \(leftover), left by an interrupted recover")
        }
        let scratch = try ScratchDirectory.make(beside: target, infix: Self.temporaryInfix)
        let temporary = scratch.path
        let built = StoreLayout(directory: temporary, keys: source.keys)
        do {
            let writer = RecoverWriter(layout: built, storeID: storeID, segmentBytes: segmentBytes, cipher: cipher, keySlots: source.keySlots)
            if try writer.write(plan) == 0, cipher != nil {
                report.notes.append("\(source.keySlots) holds no key slot to copy; the recovered store has none either")
            }
            if let compactions = try? Compactions.read(source), compactions.generation > 0 { try compactions.carried.write(built) }
            _ = try Reindexer(layout: built, options: StoreOptions()).run()
            let check = try Verifier(layout: built, progress: nil).run()
            guard check.isSound, check.headSeq == headSeq else {
                throw HealthLogError(.corrupt, "the recovered store failed verification: \(check.problems.first ?? "it ends at sequence \(check.headSeq), not \(headSeq)")")
            }
            try scratch.unmark()
            _ = try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, target) }
        } catch {
            try? scratch.remove()
            throw error
        }
        scratch.release()
        try DurableFile.syncDirectory(containing: target)
    }
}
