import Synchronization

/// The UUID index runs a handle's appends and lookups have opened and checked, taken as
/// they are by its later appends instead of each append opening and checking every run of
/// the chain again (their checksums, their bit vectors, every sealed page): an import makes
/// one for all its appends and its lookups (``StoreOptions/checkedRuns``), which then also
/// share one copy of each run in memory.
///
/// A run is taken again only while its file is the one that was checked: the same device,
/// inode, size, and modification and change times (``FileStamp``). Runs are never written
/// in place (a rebuild or a merge writes a new file and renames it), so a run whose stamp
/// is unchanged holds what was checked; the chain's binding to the log is checked at every
/// open as before. It keeps the runs of the chain last opened or written in each `uuids/`
/// directory, so it holds what the writer holds.
package final class CheckedUUIDRuns: Sendable {
    /// A run and the stamp of its file when it was checked.
    private struct Kept: @unchecked Sendable {
        // Sendable by hand: a run's lookups and cursors only read its mapping and in-memory
        // directory, or take its sealed pages' lock, so threads may share it (as the
        // import's lookups do).
        let stamp: FileStamp
        let run: UUIDFingerprintRun
    }

    /// The kept runs by path, and how many times one was taken again.
    private struct State {
        var runs: [String: Kept] = [:]
        var taken = 0
    }

    private let state = Mutex(State())

    /// None yet.
    package init() {}

    /// How many runs it keeps.
    var count: Int { state.withLock { $0.runs.count } }

    /// How many times an open took a kept run instead of opening and checking its file.
    var taken: Int { state.withLock { $0.taken } }

    /// The run at `path`, sealed when `sealed`: the one kept if its file is unchanged since
    /// it was checked, else the one `open` opens and checks (`nil` if it does not open), kept
    /// when the file did not change while it was opened.
    func run(at path: String, sealed: Bool, opening open: () -> UUIDFingerprintRun?) -> UUIDFingerprintRun? {
        guard let before = FileStamp.of(path) else { return open() }
        let same = state.withLock { state -> Kept? in
            guard let same = state.runs[path], same.stamp == before, same.run.isSealed == sealed, !same.run.isDamaged else { return nil }
            state.taken += 1
            return same
        }
        if let same { return same.run }
        guard let run = open() else { return nil }
        if FileStamp.of(path) == before { state.withLock { $0.runs[path] = Kept(stamp: before, run: run) } }
        return run
    }

    /// Keeps `chain`, the runs of `directory` a writer or reader holds now (runs it wrote
    /// among them), and lets go of the other runs kept there.
    func remember(_ chain: [UUIDFingerprintRun], in directory: String) {
        let prefix = directory + "/"
        var fresh: [String: FileStamp] = [:]
        for run in chain where !isKept(run) {
            if let stamp = FileStamp.of(run.path) { fresh[run.path] = stamp }
        }
        let paths = Set(chain.map(\.path))
        state.withLock { state in
            for path in state.runs.keys where path.hasPrefix(prefix) && !paths.contains(path) { state.runs[path] = nil }
            for run in chain {
                if let stamp = fresh[run.path] { state.runs[run.path] = Kept(stamp: stamp, run: run) }
            }
        }
    }

    /// Whether `run` itself is kept.
    private func isKept(_ run: UUIDFingerprintRun) -> Bool {
        state.withLock { $0.runs[run.path]?.run === run }
    }
}
