#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `verify`'s check of the UUID index against the log, in bounded memory.
///
/// Opened before the walk of the log: it opens and checks every run file in `uuids/`
/// (``UUIDFingerprintRun``: header, body checksum, bit vector). The walk then gives it
/// every committed event in sequence order (``add(_:seq:isDelete:)``), and for each run
/// that opened it collects the fingerprint and sequence number of each event of the run's
/// range (``UUIDFingerprintRun/Events``: a stretch in memory, the rest sorted in a scratch
/// file outside the store, which read-only commands never write into).
/// ``finish(headSeq:_:)`` compares each stored run's keys with the keys the log implies,
/// in order, one at a time.
final class UUIDRunCheck {
    /// One stored run and the run the log implies for its range.
    private struct Checked {
        /// The run's store-relative name, for messages.
        var display: String
        /// The stored run.
        var run: UUIDFingerprintRun
        /// The events of the run's range the log holds, in the making.
        var events: UUIDFingerprintRun.Events
        /// The last event given.
        var lastSeq: UInt64 = 0
    }

    /// The store's `uuids/` directory.
    private let directory: String
    /// The runs that opened and lie within the log.
    private var checked: [Checked] = []
    /// The ranges of the runs that agree with the log.
    private var usable: [ClosedRange<UInt64>] = []
    /// What opening the runs found, reported by ``finish(headSeq:_:)``.
    private var found: (problems: [String], notes: [String]) = ([], [])

    /// Opens the runs of `layout` for the log of `snapshot`, with `cipher` for the sealed
    /// runs of an encrypted store.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the key of an encrypted store's scratch
    ///   files cannot be made.
    init(layout: StoreLayout, snapshot: LogSnapshot, cipher: StoreCipher?) throws {
        let headSeq = snapshot.headSeq
        directory = layout.directory + "/uuids"
        let names = (try? DirectoryListing.names(in: directory))?.filter { UUIDFingerprintRun.range(ofFileName: $0) != nil } ?? []
        for name in names.sorted() {
            let display = "uuids/" + name
            if case .other(let version) = IndexVersion(path: directory + "/" + name, of: UUIDFingerprintRun.file) {
                found.notes.append(IndexVersion.note(display, version: version, current: FormatConstants.uuidIndexVersion))
                continue
            }
            var damage = (offset: 0, what: "header")
            guard let run = UUIDFingerprintRun(path: directory + "/" + name, cipher: cipher, damage: { damage = ($0, $1) }),
                run.fromSeq...run.toSeq == UUIDFingerprintRun.range(ofFileName: name)
            else {
                found.problems.append("\(display) at byte \(damage.offset): damaged (\(damage.what)); run 'healthlog reindex'")
                continue
            }
            guard run.toSeq <= headSeq else {
                found.notes.append("\(display) reaches past the log's head; the next write removes it")
                continue
            }
            guard run.binding == snapshot.binding(at: run.toSeq) else {
                found.problems.append(
                    "\(display) at byte \(UUIDFingerprintRun.bindingOffset): was derived from another log (store or batch at sequence \(run.toSeq)); run 'healthlog reindex'")
                continue
            }
            checked.append(Checked(display: display, run: run, events: try UUIDFingerprintRun.Events(sealedLike: cipher)))
        }
    }

    /// Gives the event `seq` (after every event given before) that adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        for k in checked.indices where checked[k].run.fromSeq <= seq && seq <= checked[k].run.toSeq {
            // A damaged log's walk may repeat a number; the walk reports that, and the run is not compared.
            guard checked[k].events.count == 0 || seq > checked[k].lastSeq else { continue }
            checked[k].lastSeq = seq
            try checked[k].events.add(uuid, seq: seq)
        }
    }

    /// Reports each run that is damaged, reaches past the head or disagrees with the log
    /// (at the byte offset of the first entry that differs), and a note when the chain of
    /// runs from 1 stops short of `headSeq`. Call it only once every event was given; it
    /// lets the runs and their events go.
    func finish(headSeq: UInt64, _ report: inout VerifyReport) throws {
        report.problems += found.problems
        report.notes += found.notes
        let checked = checked
        self.checked = []
        for entry in checked {
            let difference = try Self.firstDifference(entry.run, entry.events)
            if let offset = entry.run.failedPageOffset {
                report.problems.append("\(entry.display) at byte \(offset): damaged (a sealed page changed while it was read); run 'healthlog reindex'")
                continue
            }
            if let k = difference {
                report.problems.append("\(entry.display) at byte \(entry.run.fieldOffset(k)): disagrees with the log at entry \(k + 1); run 'healthlog reindex'")
                continue
            }
            usable.append(entry.run.fromSeq...entry.run.toSeq)
        }
        // The chain writers keep (UUIDRunSet.openChain): from 1, the longest run at each
        // step; a leftover run beside it (a stale copy, a merge's input) is not a gap.
        var covered: UInt64 = 0
        for range in usable.sorted(by: { ($0.lowerBound, $1.upperBound) < ($1.lowerBound, $0.upperBound) })
        where range.lowerBound == covered + 1 {
            covered = range.upperBound
        }
        if covered < headSeq {
            report.notes.append("the UUID index covers events 1...\(covered) of \(headSeq); the next write brings it up to date")
        }
    }

    /// The index of the first key where the stored `run` and the run of `expected` differ
    /// (one ending first counts), or `nil` when they are equal.
    private static func firstDifference(_ run: UUIDFingerprintRun, _ expected: UUIDFingerprintRun.Events) throws -> Int? {
        var stored = UUIDFingerprintRun.KeyCursor(run)
        var k = 0
        var differs: Int?
        try expected.forEachKey(from: run.fromSeq, to: run.toSeq) { key in
            guard differs == nil else { return }
            if stored.next() != key { differs = k }
            k += 1
        }
        if differs == nil, stored.next() != nil { differs = k }
        return differs
    }
}
