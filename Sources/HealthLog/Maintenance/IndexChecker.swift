#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `verify`'s checks of the derived files against the log: every segment's sidecar index,
/// the sync-identifier table and the deleted-add index (the UUID index has ``UUIDRunCheck``).
/// An index that is merely behind the log (a crash before it was rewritten), ahead of it
/// (a crash after it was written for an append that never committed) or of another index
/// version (``IndexVersion``) is a note; one that is damaged or disagrees with the log is
/// a problem, reported with its file and byte offset.
struct IndexChecker {
    let layout: StoreLayout
    /// The log, walked without trusting any index.
    let snapshot: LogSnapshot

    /// Checks each segment's `.idx` against the batches its segment holds.
    func checkSegmentIndexes(_ report: inout VerifyReport) {
        for (index, file) in snapshot.segments.enumerated() {
            let path = SegmentIndex.path(layout, file.name)
            let display = "segments/" + (path.split(separator: "/").last.map(String.init) ?? "")
            guard let batches = try? snapshot.batches(inSegment: index, allowingShells: true) else { continue }
            guard FileDescriptor.exists(path) else {
                if batches.isEmpty { continue }
                report.notes.append("\(display) is missing; the next write rebuilds it")
                continue
            }
            let version = IndexVersion(path: path, of: SegmentIndex.file)
            if case .other(let found) = version {
                report.notes.append(IndexVersion.note(display, version: found, current: FormatConstants.segmentIndexVersion))
                continue
            }
            // Compared as the file is walked, each entry with the header its segment holds,
            // not read whole first: a compacted segment's headers can be most of its bytes. An
            // encrypted store's sealed copy of the tables, after the entries, is opened where
            // it lies and checked in a second walk, so the entries and the opened copy are
            // never held together.
            var comparison = EntryComparison(batches: batches, file: file)
            var copy: Result<OpenedTableCopy, CopyFailure>?
            var copyLeft = false
            let isSound =
                SegmentIndex.check(
                    layout, file.name, visit: { offset, payload in comparison.add(offset, payload) },
                    copy: snapshot.cipher.map { cipher in
                        { header, unit, release in
                            let copyHeader = Array(header.prefix(SegmentIndex.copyPlaceLength))
                            // One that readers leave (an earlier build's, listing a compacted
                            // segment's dropped events) is not opened here either.
                            guard OpenedTableCopy.isWithinReaderBound(unit, header: copyHeader) else {
                                copyLeft = true
                                return
                            }
                            var failedAt = 0
                            let owned = SegmentIndex.copyOut(unit, letGo: release)
                            let opened = OpenedTableCopy.open(
                                owned: consume owned, header: copyHeader, cipher: cipher, batchCount: comparison.listed, failedAt: &failedAt)
                            copy = opened.map { .success($0) } ?? .failure(CopyFailure(at: failedAt))
                        }
                    }) ?? false
            guard isSound else {
                report.problems.append("\(display) at byte 0: damaged (checksum or layout); run 'healthlog reindex'")
                continue
            }
            if let (k, at) = comparison.disagreement {
                report.problems.append("\(display) at byte \(at): batch \(k + 1) disagrees with \(file.displayPath); run 'healthlog reindex'")
                continue
            }
            if comparison.listed > batches.count {
                let past = comparison.listed - batches.count
                report.notes.append("\(display) lists \(past) \(past == 1 ? "batch" : "batches") past the log's end (an append that did not finish); the next write rewrites it")
                continue
            }
            if comparison.listed < batches.count {
                report.notes.append("\(display) lists \(comparison.listed) of \(batches.count) batches; the next write brings it up to date")
            }
            if copyLeft {
                report.notes.append(
                    "\(display): its sealed copy of the tables is past what readers open (an earlier build's layout, listing dropped events), so they open the batches' own tables; 'healthlog reindex' rewrites it")
            }
            if let copy, let (at, problem) = checkSealedCopy(copy, of: file.name, against: batches) {
                report.problems.append("\(display) at byte \(comparison.end + at): \(problem); run 'healthlog reindex'")
            }
        }
    }

    /// Where a sealed copy of the tables stopped opening, in the copy.
    private struct CopyFailure: Error {
        var at: Int
    }

    /// A segment index's entries compared, one at a time, with the batches its segment
    /// holds (their offsets, and their header payloads as the segment stores them): the
    /// first that differs, and how many are listed.
    private struct EntryComparison {
        let batches: [BatchRef]
        /// The segment.
        let file: SegmentFile
        /// How many entries were compared.
        private(set) var listed = 0
        /// Where the entries compared end in the index file.
        private(set) var end = SegmentIndex.headerLength
        /// The first entry that disagrees with its batch, and where in the file it starts.
        private(set) var disagreement: (entry: Int, at: Int)?
        /// What the segment's header frames are read into.
        private var buffer: [UInt8] = []

        init(batches: [BatchRef], file: SegmentFile) {
            self.batches = batches
            self.file = file
        }

        /// Compares the next entry: the batch at `offset` whose header payload is `payload`.
        mutating func add(_ offset: Int, _ payload: UnsafeRawBufferPointer) {
            defer {
                listed += 1
                end += 12 + payload.count
            }
            guard disagreement == nil, listed < batches.count else { return }
            if offset != batches[listed].offset || !file.holdsHeader(payload, at: offset, buffer: &buffer) { disagreement = (listed, end) }
        }
    }

    /// What is wrong with `copy`, the sealed copy of the batch tables that the index of
    /// `name` (which agrees with the log) holds after its entries, as opened, checked against
    /// the tables of `batches`, the segment's batches as the log gives them, and where in the
    /// copy (the unit that does not open); `nil` when it opens and gives every batch its own
    /// table. The index is walked again for the entries' payloads, which the copy's tables
    /// are taken with. A reader ignores a copy that is wrong (it opens the tables instead),
    /// so this only tells which index `reindex` should rewrite.
    private func checkSealedCopy(_ copy: Result<OpenedTableCopy, CopyFailure>, of name: SegmentName, against batches: [BatchRef]) -> (at: Int, problem: String)? {
        let opened: OpenedTableCopy
        switch copy {
        case .success(let copy): opened = copy
        case .failure(let failure): return (failure.at, "the sealed copy of its batch tables does not open")
        }
        var k = 0
        var disagreeing: Int?
        let isSound = SegmentIndex.check(layout, name) { _, payload in
            defer { k += 1 }
            guard disagreeing == nil, k < batches.count else { return }
            // A copy that gives the dropped lists' counts is compared with the header as kept.
            guard let table = opened.table(k, payload: Array(payload)[...]),
                let header = table.listsDropped ? try? snapshot.fullHeader(of: batches[k]) : batches[k].header, table.groups == header.groups,
                table.tail.elementsEqual(header.encodedTableTail(listingDropped: table.listsDropped))
            else {
                disagreeing = k
                return
            }
        }
        if let disagreeing { return (0, "the sealed copy of its batch tables disagrees with batch \(disagreeing + 1)") }
        // Sound a moment ago, the file was replaced while it was checked.
        return isSound == true ? nil : (0, "the index changed while it was checked")
    }

    /// Checks the sync-identifier table against the log up to the point it covers.
    func checkSyncTable(_ report: inout VerifyReport) throws {
        let path = SyncTable.path(layout)
        guard FileDescriptor.exists(path) else { return }
        if case .other(let version) = IndexVersion(path: path, of: SyncTable.file) {
            report.notes.append(IndexVersion.note("uuids/sync", version: version, current: FormatConstants.syncTableVersion))
            return
        }
        guard let found = SyncTable.read(layout, cipher: snapshot.cipher) else {
            report.problems.append("uuids/sync at byte 0: damaged; run 'healthlog reindex'")
            return
        }
        guard found.coveredSeq <= snapshot.headSeq else {
            report.notes.append("uuids/sync reaches past the log's head; the next write rebuilds it")
            return
        }
        guard found.isBound(to: snapshot) else {
            report.problems.append(
                "uuids/sync at byte \(SyncTable.bindingOffset): was derived from another log (store or batch at sequence \(found.coveredSeq)); run 'healthlog reindex'")
            return
        }
        var expected = SyncTable()
        try expected.catchUp(snapshot, through: found.coveredSeq)
        if expected.entries != found.entries {
            report.problems.append("uuids/sync at byte \(SyncTable.headerLength): disagrees with the log; run 'healthlog reindex'")
        }
    }
}

extension IndexChecker {
    /// Checks the deleted-add index against the log up to the point it covers: every add
    /// line there is listed exactly when a delete it covers deleted it (an entry whose add
    /// `compact` dropped may be missing, as builds before the witness left it), and the file
    /// matches the witness the batch ending at its covered number records. A witness that
    /// the log itself no longer fits (events lost before a `recover`) is a note: readers
    /// then take no index until the next append records the log's. Missing is not worth a
    /// note (readers then read the deletes, and the next write rebuilds it).
    func checkDeletedAdds(_ report: inout VerifyReport) throws {
        let display = DeletedAddIndex.display
        let path = DeletedAddIndex.path(layout)
        guard FileDescriptor.exists(path) else { return }
        if case .other(let version) = IndexVersion(path: path, of: DeletedAddIndex.file) {
            report.notes.append(IndexVersion.note(display, version: version, current: FormatConstants.deletedAddIndexVersion))
            return
        }
        guard let index = DeletedAddIndex.open(layout, cipher: snapshot.cipher) else {
            report.problems.append("\(display) at byte 0: damaged (checksum or layout); run 'healthlog reindex'")
            return
        }
        do {
            try index.checkEntries()
        } catch let error as HealthLogError {
            report.problems.append(error.message)
            return
        }
        guard index.coveredSeq <= snapshot.headSeq else {
            report.notes.append("\(display) reaches past the log's head; the next write rebuilds it")
            return
        }
        guard index.binding == snapshot.binding(at: index.coveredSeq) else {
            report.problems.append("\(display) at byte 32: was derived from another log (store or batch at sequence \(index.coveredSeq)); run 'healthlog reindex'")
            return
        }
        // The adds the log deletes and the index's entries (checked above, read again a
        // block at a time) are compared as both are read, neither held whole.
        var expected = try DeletedAddIndex.ExpectedAdds(snapshot, through: index.coveredSeq)
        var expectedWitness = BatchOrigin.DeletedAddWitness.empty
        var pending = try expected.next()
        var cursor = index.entryCursor()
        var position = 0
        var listed = BatchOrigin.DeletedAddWitness.empty
        func advance() throws {
            if let seq = pending { expectedWitness = expectedWitness.adding(seq: seq) }
            pending = try expected.next()
        }
        while let entry = try cursor.next() {
            defer { position += 1 }
            listed = listed.adding(seq: entry)
            while let seq = pending, seq < entry, try snapshot.wasDropped(seq) { try advance() }
            if pending == entry {
                try advance()
            } else if try pending.map({ $0 < entry }) == true || !snapshot.wasDropped(entry) {
                report.problems.append("\(display) at byte \(index.offset(ofEntry: position)): disagrees with the log; run 'healthlog reindex'")
                return
            }
        }
        var lacking = 0
        while let seq = pending {
            if try !snapshot.wasDropped(seq) { lacking += 1 }
            try advance()
        }
        if lacking > 0 {
            report.problems.append("\(display) at byte \(index.offset(ofEntry: position)): lacks \(lacking) of the log's deleted samples; run 'healthlog reindex'")
            return
        }
        guard index.coveredSeq > 0, let witness = try snapshot.batch(containing: index.coveredSeq)?.header.origin?.deletedAdds else { return }
        if expectedWitness != witness {
            report.notes.append(
                "the append ending at sequence \(index.coveredSeq) witnesses \(witness.count) deleted adds, the log holds \(expectedWitness.count) (events lost); \(display) is not used until the next append")
        } else if listed != witness {
            report.problems.append("\(display) at byte 16: disagrees with the deleted adds the log witnesses at sequence \(index.coveredSeq); run 'healthlog reindex'")
        }
    }
}

extension String {
    /// The string with `prefix` replaced when it starts with it.
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
