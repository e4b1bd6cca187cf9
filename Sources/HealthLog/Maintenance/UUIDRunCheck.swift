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
/// range (12 bytes an event, in memory: nothing is written, read-only commands never write
/// into the store). ``finish(headSeq:_:)`` compares each stored run's keys with the keys
/// the log implies, in order.
final class UUIDRunCheck {
    /// One stored run and the run the log implies for its range.
    private struct Checked {
        /// The run's store-relative name, for messages.
        var display: String
        /// The stored run.
        var run: UUIDFingerprintRun
        /// The events of the run's range the log holds, in the making.
        var events = UUIDFingerprintRun.Events()
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
    init(layout: StoreLayout, snapshot: LogSnapshot, cipher: StoreCipher?) {
        let headSeq = snapshot.headSeq
        directory = layout.directory + "/uuids"
        let names = (try? DirectoryListing.names(in: directory))?.filter { UUIDFingerprintRun.range(ofFileName: $0) != nil } ?? []
        for name in names.sorted() {
            let display = "uuids/" + name
            if case .other(let version) = IndexVersion(path: directory + "/" + name, of: UUIDFingerprintRun.file) {
                found.notes.append(IndexVersion.note(display, version: version, current: FormatConstants.uuidIndexVersion))
                continue
            }
            guard let run = UUIDFingerprintRun(path: directory + "/" + name, cipher: cipher), run.fromSeq...run.toSeq == UUIDFingerprintRun.range(ofFileName: name) else {
                found.problems.append("\(display) at byte 0: damaged (header, checksum or bit vector); run 'healthlog reindex'")
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
            checked.append(Checked(display: display, run: run))
        }
    }

    /// Gives the event `seq` (after every event given before) that adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        for k in checked.indices where checked[k].run.fromSeq <= seq && seq <= checked[k].run.toSeq {
            checked[k].events.add(uuid, seq: seq)
        }
    }

    /// Reports each run that is damaged, reaches past the head or disagrees with the log
    /// (at the byte offset of the first entry that differs), and a note when the chain of
    /// runs from 1 stops short of `headSeq`. Call it only once every event was given.
    func finish(headSeq: UInt64, _ report: inout VerifyReport) throws {
        report.problems += found.problems
        report.notes += found.notes
        for entry in checked {
            let expected = entry.events.keys(from: entry.run.fromSeq, to: entry.run.toSeq).sorted()
            if let k = Self.firstDifference(entry.run.keys(), expected) {
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

    /// The index of the first key where `stored` and `expected` differ (one ending first
    /// counts), or `nil` when they are equal.
    private static func firstDifference(_ stored: [UInt64], _ expected: [UInt64]) -> Int? {
        for k in 0..<max(stored.count, expected.count) where k >= stored.count || k >= expected.count || stored[k] != expected[k] {
            return k
        }
        return nil
    }
}
