#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

let status = HealthLogCommand.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
