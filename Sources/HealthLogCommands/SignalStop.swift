#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The write end of the stop signal the handlers below poke; a C signal handler cannot
/// capture context, so it lives here. Written once, before the handlers are installed.
nonisolated(unsafe) private var stopDescriptor: Int32 = -1

/// Turns SIGINT and SIGTERM into a ``StopSignal`` for `replay --follow` and
/// `backup --follow`, so the follow finishes its batch (or backup round), flushes, prints
/// its last line and exits 0.
enum SignalStop {
    /// A stop signal that SIGINT and SIGTERM trigger from now on.
    static func install() throws -> StopSignal {
        let stop = try StopSignal()
        stopDescriptor = stop.descriptor
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(stopDescriptor, &byte, 1)
            }
            #else
            action.__sigaction_u.__sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(stopDescriptor, &byte, 1)
            }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
        // A process inherits its parent's signal mask: started from a thread that blocks
        // SIGINT and SIGTERM (as Foundation's Process does from a Dispatch worker), the
        // signals would stay pending forever and the follow could not be stopped.
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGINT)
        sigaddset(&handled, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        return stop
    }
}
