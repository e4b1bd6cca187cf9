#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `verify`'s check of the UUID index against the log, in bounded memory.
///
/// Opened before the walk of the log: it reads every run file's header and block table in
/// `uuids/`. The walk then gives it every committed event in sequence order (``add(_:seq:isDelete:)``),
/// and for each run that opened a ``UUIDRunBuilder`` builds the run the log implies for
/// the same range, in scratch directories outside the store (read-only commands never
/// write into it). ``finish(_:)`` compares each stored run with the built one entry by
/// entry, a block of each at a time, and ``discard()`` removes the built runs.
final class UUIDRunCheck {
    /// One stored run and the run the log implies for its range.
    private struct Checked {
        /// The run's store-relative name, for messages.
        var display: String
        /// The stored run.
        var run: UUIDRun
        /// The run the log implies for the same range, in the making.
        var builder: UUIDRunBuilder
    }

    /// The store's `uuids/` directory.
    private let directory: String
    /// The runs that opened and lie within the log.
    private var checked: [Checked] = []
    /// The ranges of the runs that agree with the log.
    private var usable: [ClosedRange<UInt64>] = []
    /// What opening the runs found, reported by ``finish(headSeq:_:)``.
    private var found: (problems: [String], notes: [String]) = ([], [])

    /// Opens the runs of `layout` for a log whose head is `headSeq`; built runs hold at most
    /// `chunkEvents` events in memory at a time.
    init(layout: StoreLayout, headSeq: UInt64, chunkEvents: Int = UUIDRunBuilder.defaultChunkEvents) {
        directory = layout.directory + "/uuids"
        let names = (try? DirectoryListing.names(in: directory))?.filter { UUIDRun.range(ofFileName: $0) != nil } ?? []
        for name in names.sorted() {
            let display = "uuids/" + name
            if case .other(let version) = IndexVersion(path: directory + "/" + name, tag: UUIDRun.tag, current: FormatConstants.uuidRunVersion) {
                found.notes.append(IndexVersion.note(display, version: version, current: FormatConstants.uuidRunVersion))
                continue
            }
            guard let run = UUIDRun(path: directory + "/" + name), run.fromSeq...run.toSeq == UUIDRun.range(ofFileName: name) else {
                found.problems.append("\(display) at byte 0: damaged header or block table; run 'healthlog reindex'")
                continue
            }
            guard run.toSeq <= headSeq else {
                found.notes.append("\(display) reaches past the log's head; the next write removes it")
                continue
            }
            let builder = UUIDRunBuilder(from: run.fromSeq, directory: nil, chunkEvents: chunkEvents)
            checked.append(Checked(display: display, run: run, builder: builder))
        }
    }

    /// Gives the event `seq` (after every event given before) that adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        for entry in checked where entry.run.fromSeq <= seq && seq <= entry.run.toSeq {
            try entry.builder.add(uuid, seq: seq, isDelete: isDelete)
        }
    }

    /// Reports each run that is damaged, reaches past the head or disagrees with the log
    /// (at the byte offset of the first entry that differs), and a note when the chain of
    /// runs from 1 stops short of `headSeq`. Call it only once every event was given.
    func finish(headSeq: UInt64, _ report: inout VerifyReport) throws {
        report.problems += found.problems
        report.notes += found.notes
        for entry in checked {
            let expected = try entry.builder.finish(through: entry.run.toSeq)
            do {
                if let k = try Self.firstDifference(entry.run, expected) {
                    report.problems.append("\(entry.display) at byte \(entry.run.entryOffset(k)): disagrees with the log at entry \(k + 1); run 'healthlog reindex'")
                }
            } catch let error as HealthLogError where error.code == .corrupt && error.message.hasPrefix(entry.run.path) {
                report.problems.append(error.message.replacingPrefix(directory + "/", with: "uuids/"))
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

    /// Removes the runs built for the comparison and their scratch directories.
    func discard() {
        for entry in checked { entry.builder.discard() }
    }

    /// The index of the first entry where `stored` and `expected` differ (one ending first
    /// counts), or `nil` when they are equal; throws ``HealthLogError/Code/corrupt`` naming
    /// the run whose block fails its checksum.
    private static func firstDifference(_ stored: UUIDRun, _ expected: UUIDRun) throws -> Int? {
        var a = try UUIDRun.BlockCursor(stored)
        defer { a.close() }
        var b = try UUIDRun.BlockCursor(expected)
        defer { b.close() }
        var k = 0
        while a.current != nil || b.current != nil {
            guard a.current == b.current else { return k }
            try a.advance()
            try b.advance()
            k += 1
        }
        return nil
    }
}
