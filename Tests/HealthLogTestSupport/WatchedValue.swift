import Synchronization

/// A value shared between threads that a test can wait on: whoever changes it through
/// ``update(_:)`` wakes the tasks waiting in ``wait(within:until:)`` whose condition now
/// holds. For waits on something the code under test signals (an update handler, a
/// follow's `afterBatch`, a background job finishing), so nothing polls or sleeps.
public final class WatchedValue<Value: Sendable>: Sendable {
    /// A task waiting for a condition.
    private struct Waiter {
        /// What it waits for.
        var condition: @Sendable (Value) -> Bool
        /// Resumed with `true` when the condition holds, `false` when the wait gives up.
        var continuation: CheckedContinuation<Bool, Never>
    }

    /// The value, the waiting tasks by ticket, and the next ticket.
    private let state: Mutex<(value: Value, waiters: [Int: Waiter], nextTicket: Int)>

    /// A watched `value`.
    public init(_ value: Value) { state = Mutex((value, [:], 0)) }

    /// The value now.
    public var value: Value { state.withLock { $0.value } }

    /// Changes the value with `body` and wakes each waiter whose condition now holds.
    public func update(_ body: (inout Value) -> Void) {
        let woken = state.withLock { state -> [Waiter] in
            body(&state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.value.condition(value) }
            for ticket in ready.keys { state.waiters[ticket] = nil }
            return Array(ready.values)
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds of the value, for up to `seconds` (generous: CI
    /// machines are slow); returns whether it came to hold.
    public func wait(within seconds: Double = 60, until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.satisfied(condition) }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Returns `true` once `condition` holds, or `false` when the task is cancelled first.
    private func satisfied(_ condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            return state.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked and registered under the lock, so neither an update nor the
                // cancellation below can slip in between.
                let answer = state.withLock { state -> Bool? in
                    if condition(state.value) { return true }
                    if Task.isCancelled { return false }
                    state.waiters[ticket] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: ticket) }
            waiter?.continuation.resume(returning: false)
        }
    }
}
