#if !canImport(Darwin)
/// The app's handlers the module is running: the exit hook waits for them to return, so
/// that what a handler saves as it returns (a query's new anchor in `UserDefaults`) is
/// saved before the program ends.
enum HandlerCalls {
    private static let state = NSCondition()
    nonisolated(unsafe) private static var running = 0
    /// The key of the calling thread's count of handler calls it is inside.
    private static let depthKey = "HealthKit.HandlerCalls.depth"

    /// Runs `body`, a call of the app's handlers, counted as running.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { running += 1 }
        let thread = Thread.current.threadDictionary
        thread[depthKey] = ((thread[depthKey] as? Int) ?? 0) + 1
        defer {
            thread[depthKey] = ((thread[depthKey] as? Int) ?? 1) - 1
            state.withLock {
                running -= 1
                state.broadcast()
            }
        }
        return try body()
    }

    /// Waits until no handler runs on another thread than the caller's, at most `seconds`.
    static func waitForOthers(seconds: Double) {
        let own = (Thread.current.threadDictionary[depthKey] as? Int) ?? 0
        let deadline = Date(timeIntervalSinceNow: seconds)
        state.withLock {
            while running > own, state.wait(until: deadline) {}
        }
    }
}
#endif
