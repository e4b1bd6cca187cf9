#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The worker the handlers below pass signals to; a C signal handler cannot capture
/// context, so it lives here. Written before the handlers are installed.
nonisolated(unsafe) private var workerID: pid_t = 0

/// While `healthlog-import` runs, SIGINT, SIGTERM and SIGHUP sent to `healthlog` are
/// passed on to it: the worker stops its import and cleans up (a new store's staging
/// removed), and `healthlog` stays to print why it stopped.
enum WorkerSignals {
    /// The signals passed on.
    private static let forwarded = [SIGINT, SIGTERM, SIGHUP]

    /// Passes the signals on to the worker `pid` from now on.
    static func forward(to pid: pid_t) {
        workerID = pid
        SignalHandlers.install(forwarded) { signalNumber in _ = kill(workerID, signalNumber) }
    }

    /// Gives the signals their default action again.
    static func restore() {
        for signalNumber in forwarded { signal(signalNumber, SIG_DFL) }
    }
}
