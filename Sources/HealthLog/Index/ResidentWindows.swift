import Synchronization

/// Keeps what random reads of read-only mappings add to the process's resident memory
/// within a budget shared by every mapping made with it (``Budget``). A read that faults
/// maps in the file's cached pages of the 64 KiB around it (the kernel's fault-around), so
/// lookups spread over a mapping of tens of megabytes would soon hold all of it: a small
/// append into a 10M-event store held 25 MB of its UUID index this way, and a chain of runs
/// each under a budget of its own held a budget per run. Readers note the offsets they
/// read; once the distinct 64 KiB windows noted over all the budget's mappings since their
/// pages were last let go pass the budget, every one that noted a window lets its pages go
/// (``MappedFile/releaseAll()``), and later reads fault their pages back in from the page
/// cache. A kernel that caches a file in larger pieces (folios) maps a whole piece at a
/// fault, so the budget bounds the faults in each window; what they map is up to the pieces'
/// size each.
///
/// Thread-safe: the import's mapping threads look up one run at once.
final class ResidentWindows: Sendable {
    /// The bytes a window covers: the kernel's fault-around.
    static let windowBytes = 1 << 16

    /// The windows the mappings made with it may hold together before they let their pages go.
    final class Budget: Sendable {
        /// A mapping of the budget and the windows noted in it, a bit each.
        fileprivate struct Member {
            let mapped: MappedFile
            var bits: [UInt64]
            var count = 0
            var releases = 0

            /// Forgets its windows, counting a release, and returns the mapping, whose pages
            /// the caller lets go once it has left the lock.
            mutating func forget() -> MappedFile {
                for i in bits.indices { bits[i] = 0 }
                count = 0
                releases += 1
                return mapped
            }
        }

        fileprivate struct State {
            /// The members by number; a member that left leaves its slot to the next one.
            var members: [Member?] = []
            var count = 0
        }

        /// How many windows may be noted before the pages are let go.
        let windows: Int
        fileprivate let state = Mutex(State())

        /// A budget of `bytes` of windows.
        init(bytes: Int) {
            windows = max(1, bytes / ResidentWindows.windowBytes)
        }

        /// The windows noted over all the mappings since their pages were last let go.
        var notedWindows: Int { state.withLock { $0.count } }

        /// Forgets the windows of every mapping that noted any (a mapping that noted none has
        /// had nothing read since its pages last went) and returns those mappings, whose pages
        /// the caller lets go once it has left the lock, so another thread's lookups do not
        /// wait for that; with the lock held.
        fileprivate static func forget(_ state: inout State) -> [MappedFile] {
            var noted: [MappedFile] = []
            for id in state.members.indices where (state.members[id]?.count ?? 0) > 0 { noted.append(state.members[id]!.forget()) }
            state.count = 0
            return noted
        }
    }

    private let budget: Budget
    /// This mapping's number in the budget.
    private let id: Int
    private let length: Int
    /// How far the mapping's first byte lies into its window: windows are aligned in the
    /// address space, as the kernel's fault-around is.
    private let lead: Int

    /// Notes for `mapped` within `budget`, which lets the pages of all its mappings go once
    /// reads touched more than its bytes of windows.
    init(_ mapped: MappedFile, budget: Budget) {
        self.budget = budget
        length = mapped.count
        lead = mapped.withBytes(0..<0) { Int(bitPattern: $0.baseAddress) } % Self.windowBytes
        let windows = (lead + mapped.count + Self.windowBytes - 1) / Self.windowBytes
        id = budget.state.withLock { state in
            let member = Budget.Member(mapped: mapped, bits: [UInt64](repeating: 0, count: (windows + 63) / 64))
            if let free = state.members.firstIndex(where: { $0 == nil }) {
                state.members[free] = member
                return free
            }
            state.members.append(member)
            return state.members.count - 1
        }
    }

    /// Leaves the budget, giving back the windows it held.
    deinit {
        budget.state.withLock { state in
            state.count -= state.members[id]!.count
            state.members[id] = nil
        }
    }

    /// Notes reads at byte offsets `first` and `second` of the mapping.
    func note(_ first: Int, _ second: Int) {
        let (id, length, lead, windows) = (id, length, lead, budget.windows)
        let released = budget.state.withLock { state -> [MappedFile] in
            func mark(_ offset: Int) {
                guard offset >= 0, offset < length else { return }
                let window = (lead + offset) / Self.windowBytes
                let bit: UInt64 = 1 << UInt64(window % 64)
                guard state.members[id]!.bits[window / 64] & bit == 0 else { return }
                state.members[id]!.bits[window / 64] |= bit
                state.members[id]!.count += 1
                state.count += 1
            }
            mark(first)
            mark(second)
            return state.count > windows ? Budget.forget(&state) : []
        }
        for mapped in released { mapped.releaseAll() }
    }

    /// How many times this mapping's pages were let go.
    var releases: Int { budget.state.withLock { $0.members[id]!.releases } }

    /// Lets every page of this mapping go now.
    func releaseAll() {
        let mapped = budget.state.withLock { state -> MappedFile in
            state.count -= state.members[id]!.count
            return state.members[id]!.forget()
        }
        mapped.releaseAll()
    }
}
