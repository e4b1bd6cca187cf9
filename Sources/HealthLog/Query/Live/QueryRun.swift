import Synchronization

/// What changes over a long-running query's life, shared by ``AnchoredObjectQuery`` and
/// ``StatisticsCollectionQuery``: its update handler and other settings, which may be set
/// only before it is executed, whether it has been, and the signal that stops it.
final class QueryRun<Handler: Sendable, Settings: Sendable>: Sendable {
    private struct State {
        var updateHandler: Handler?
        var settings: Settings
        var stop: StopSignal?
        var isExecuted = false
    }

    private let state: Mutex<State>
    /// The query's name, for the message of a setting changed too late.
    private let name: String

    /// The run of a query called `name`, with `settings` until they are changed.
    init(_ name: String, settings: Settings) {
        self.name = name
        state = Mutex(State(settings: settings))
    }

    /// The update handler.
    var updateHandler: Handler? { state.withLock { $0.updateHandler } }

    /// The settings.
    var settings: Settings { state.withLock { $0.settings } }

    /// Sets the update handler, `property` naming it; setting it after ``begin(checking:)``
    /// is a programming error (it traps).
    func setUpdateHandler(_ handler: Handler?, property: String) {
        state.withLock { state in
            precondition(!state.isExecuted, "\(name).\(property) set after execute(_:)")
            state.updateHandler = handler
        }
    }

    /// Changes the settings, `property` naming what changes; after ``begin(checking:)`` it
    /// is a programming error (it traps).
    func change(_ property: String, _ body: (inout Settings) -> Void) {
        state.withLock { state in
            precondition(!state.isExecuted, "\(name).\(property) set after execute(_:)")
            body(&state.settings)
        }
    }

    /// Marks the query executed, once `check` (given the update handler) accepted it;
    /// returns its update handler and stop signal.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a query already executed, or what
    ///   `check` throws.
    func begin(checking check: (Handler?) throws -> Void = { _ in }) throws -> (Handler?, StopSignal) {
        let stop = try StopSignal()
        let handler = try state.withLock { state -> Handler? in
            guard !state.isExecuted else { throw HealthLogError(.badUsage, "this query has already been executed") }
            try check(state.updateHandler)
            state.isExecuted = true
            state.stop = stop
            return state.updateHandler
        }
        return (handler, stop)
    }

    /// Stops the query.
    func end() {
        state.withLock { $0.stop }?.stop()
    }
}
