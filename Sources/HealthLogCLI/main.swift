#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLogCommands

#if canImport(Glibc)
/// glibc's mallopt(3), which Swift's C library module does not declare (malloc.h is not in it).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// M_MMAP_THRESHOLD in glibc's malloc.h.
private let mmapThreshold: Int32 = -3

// Blocks of 4 MiB and more get mappings of their own, returned to the system when freed.
// A fixed threshold also stops glibc raising it to the size of each large block freed (up
// to 32 MiB), after which freed chunk buffers stayed in its heaps: a 1M-event append's peak
// RSS was about a sixth above what it used.
_ = mallopt(mmapThreshold, 4 << 20)
#endif

// The shipping `healthlog`: parse, run, exit. It injects no faults and reads no test hook.
exit(HealthLogCommand.main(Array(CommandLine.arguments.dropFirst())))
