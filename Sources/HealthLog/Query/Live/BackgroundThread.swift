/// Runs a long job on a thread of its own (a follow blocks for as long as it runs, which
/// would starve Dispatch's or Swift concurrency's shared pools).
enum BackgroundThread {
    /// Starts `body` on a new, detached thread (runs it here when no thread can be started).
    static func start(_ body: @escaping @Sendable () -> Void) {
        if !startIfPossible(body) { body() }
    }

    /// Starts `body` on a new, detached thread; `false` (and `body` not run) when no thread
    /// can be started.
    static func startIfPossible(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = OSThread.start(body) else { return false }
        thread.detach()
        return true
    }
}
