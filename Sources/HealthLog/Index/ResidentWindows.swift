import Synchronization

/// Keeps what random reads of a large read-only mapping add to the process's resident
/// memory within a budget. A read that faults maps in the file's cached pages of the
/// 64 KiB around it (the kernel's fault-around), so lookups spread over a mapping of
/// tens of megabytes would soon hold all of it: a small append into a 10M-event store
/// held 25 MB of its UUID index this way. Readers note the offsets they read; once the
/// distinct 64 KiB windows noted since the mapping's pages were last let go pass the
/// budget, they are let go (``MappedFile/releaseAll()``), and later reads fault their
/// pages back in from the page cache.
///
/// Thread-safe: the import's mapping threads look up one run at once.
final class ResidentWindows: Sendable {
    /// The bytes a window covers: the kernel's fault-around.
    static let windowBytes = 1 << 16

    /// The windows noted since the pages were let go, a bit each, and how many.
    private struct Noted {
        var bits: [UInt64]
        var count = 0
        var releases = 0
    }

    private let mapped: MappedFile
    /// How many windows may be noted before the pages are let go.
    private let budgetWindows: Int
    private let noted: Mutex<Noted>

    /// Notes for `mapped`, letting its pages go once reads touched more than `budget` bytes
    /// of windows.
    init(_ mapped: MappedFile, budget: Int) {
        self.mapped = mapped
        budgetWindows = max(1, budget / Self.windowBytes)
        let windows = (mapped.count + Self.windowBytes - 1) / Self.windowBytes
        noted = Mutex(Noted(bits: [UInt64](repeating: 0, count: (windows + 63) / 64)))
    }

    /// Notes reads at byte offsets `first` and `second` of the mapping.
    func note(_ first: Int, _ second: Int) {
        let length = mapped.count
        noted.withLock { noted in
            func mark(_ offset: Int) {
                guard offset >= 0, offset < length else { return }
                let window = offset / Self.windowBytes
                let bit: UInt64 = 1 << UInt64(window % 64)
                guard noted.bits[window / 64] & bit == 0 else { return }
                noted.bits[window / 64] |= bit
                noted.count += 1
            }
            mark(first)
            mark(second)
            if noted.count > budgetWindows { release(&noted) }
        }
    }

    /// How many times the pages were let go.
    var releases: Int { noted.withLock { $0.releases } }

    /// Lets every page of the mapping go now.
    func releaseAll() {
        noted.withLock { release(&$0) }
    }

    private func release(_ noted: inout Noted) {
        mapped.releaseAll()
        for i in noted.bits.indices { noted.bits[i] = 0 }
        noted.count = 0
        noted.releases += 1
    }
}
