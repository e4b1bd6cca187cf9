#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog
import Synchronization

/// A request to stop the import in this process: a signal handler (SIGINT, SIGTERM) or the
/// watch for the parent's end sets it, and the import's reads and appends then fail with
/// `HealthLogError.Code.io`, so the import ends the way any failure ends it (a new store's
/// staging directory removed, the appends already made kept).
package enum ImportStop {
    /// The signal that asked for the stop, 0 while none did.
    private static let signal = Atomic<Int32>(0)

    /// Asks the import to stop because of `signalNumber` (the first request wins). Safe in
    /// a signal handler: one atomic compare-and-exchange.
    package static func request(_ signalNumber: Int32) {
        _ = signal.compareExchange(expected: 0, desired: signalNumber, ordering: .relaxed)
    }

    /// Whether a stop was asked for.
    package static var isRequested: Bool { signal.load(ordering: .relaxed) != 0 }

    /// Throws when a stop was asked for.
    ///
    /// - Throws: ``HealthLogError/Code/io`` naming the signal.
    static func check() throws {
        let number = signal.load(ordering: .relaxed)
        guard number != 0 else { return }
        let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "signal \(number)"
        throw HealthLogError(.io, "the import was stopped by \(name)")
    }
}
