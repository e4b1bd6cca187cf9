#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        for signalNumber in forwarded {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { signalNumber in _ = kill(workerID, signalNumber) }
            #else
            action.__sigaction_u.__sa_handler = { signalNumber in _ = kill(workerID, signalNumber) }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
        // A process inherits its parent's signal mask (Foundation's Process starts one from
        // a thread that blocks these): unblocked, so they reach the handlers.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in forwarded { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Gives the signals their default action again.
    static func restore() {
        for signalNumber in forwarded { signal(signalNumber, SIG_DFL) }
    }
}
