#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

exit(await MirrorCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
