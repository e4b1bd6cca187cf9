#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// C signal handlers, installed one way for every command that takes signals.
package enum SignalHandlers {
    /// Installs `handler` for each of `signals` (`sigaction(2)`, `SA_RESTART`), then
    /// unblocks them in the calling thread's mask: a process inherits its parent's mask, and
    /// started from a thread that blocks them (as Foundation's `Process` does from a
    /// Dispatch worker) they would otherwise stay pending forever.
    package static func install(_ signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
        for signalNumber in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in signals { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }
}
