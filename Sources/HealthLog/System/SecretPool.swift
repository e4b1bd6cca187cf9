internal import CSodium
import Synchronization

/// One guarded allocation (`sodium_malloc`: guard pages around it, locked, left out of core
/// dumps) that a process's small secrets take their room from, one after the other: each
/// guarded allocation of its own costs a mapping, two guard-page changes, a lock and as many
/// calls to undo them (about 30 µs a key here, six keys for every command that opens an
/// encrypted store). It is read-only but while a secret is filled or wiped; room is never
/// handed out twice, and once it runs out secrets get allocations of their own. Secrets in
/// it share its guard pages rather than each having its own, as parts of one allocation do.
final class SecretPool: Sendable {
    /// The process's pool.
    static let shared = SecretPool(capacity: 8192)

    /// The bytes it holds.
    let capacity: Int

    private struct State {
        /// The allocation; `nil` until the first secret, or when it cannot be had.
        var base: UnsafeMutableRawPointer?
        /// Whether the allocation was tried.
        var tried = false
        /// The bytes handed out, from the start.
        var used = 0
        /// How many fills and wipes are under way (the allocation is writable while any is).
        var writers = 0
    }

    private let state = Mutex<State>(State())

    /// A pool of `capacity` bytes, allocated when the first secret asks for room.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Room for `count` bytes, 16-byte aligned; `nil` when the pool cannot hold them.
    func reserve(_ count: Int) -> UnsafeMutableRawPointer? {
        state.withLock { state -> UnsafeMutableRawPointer? in
            if !state.tried {
                state.tried = true
                state.base = sodium_malloc(capacity)
                // Read-only at once, unless made while a writer has it open.
                if let base = state.base, state.writers == 0 { sodium_mprotect_readonly(base) }
            }
            let start = (state.used + 15) & ~15
            guard let base = state.base, count > 0, start + count <= capacity else { return nil }
            state.used = start + count
            return base + start
        }
    }

    /// Runs `body` with the pool writable: made so by the first writer, read-only again once
    /// the last one is done (fills may nest, and run on several threads).
    func writing<R>(_ body: () throws -> R) rethrows -> R {
        state.withLock { state in
            if state.writers == 0, let base = state.base { sodium_mprotect_readwrite(base) }
            state.writers += 1
        }
        defer {
            state.withLock { state in
                state.writers -= 1
                if state.writers == 0, let base = state.base { sodium_mprotect_readonly(base) }
            }
        }
        return try body()
    }
}
