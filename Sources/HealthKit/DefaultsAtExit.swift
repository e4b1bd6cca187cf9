#if !canImport(Darwin)
/// Saves `UserDefaults.standard` when the program ends. Foundation on Linux writes the
/// defaults to disk only on `synchronize()`, which apps written for Apple platforms do not
/// call; HealthKit apps keep their query anchors there, and would sync from the beginning
/// on every run. A program that ends by a signal, or by `_exit`, does not save them.
enum DefaultsAtExit {
    /// Registers the exit hook, once, on the first use. The defaults are opened first, so
    /// that the hook, registered after whatever exit hooks Foundation registers when it
    /// opens them, runs before those. The hook first lets the handlers running on other
    /// threads return (for at most two seconds), as an app saves a query's anchor when its
    /// handler has taken the results.
    private static let registration: Void = {
        _ = UserDefaults.standard.dictionaryRepresentation()
        atexit {
            HandlerCalls.waitForOthers(seconds: 2)
            _ = UserDefaults.standard.synchronize()
        }
    }()

    /// Registers the exit hook unless it already is.
    static func register() {
        registration
    }
}
#endif
