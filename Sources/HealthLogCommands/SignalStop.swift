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
        SignalHandlers.install([SIGINT, SIGTERM]) { _ in
            var byte: UInt8 = 1
            _ = write(stopDescriptor, &byte, 1)
        }
        return stop
    }
}
