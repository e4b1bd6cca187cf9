#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLogCommands

// The shipping `healthlog`: parse, run, exit. It injects no faults and reads no test hook.
exit(HealthLogCommand.main(Array(CommandLine.arguments.dropFirst())))
