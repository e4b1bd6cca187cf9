#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAllocator
import HealthLogCommands

// Blocks of 4 MiB and more get mappings of their own, returned to the system when freed.
// A fixed threshold also stops glibc raising it to the size of each large block freed (up
// to 32 MiB), after which freed chunk buffers stayed in its heaps: a 1M-event append's peak
// RSS was about a sixth above what it used.
_ = healthlog_fix_mmap_threshold(4 << 20)

// The shipping `healthlog`: parse, run, exit. It injects no faults and reads no test hook.
exit(HealthLogCommand.main(Array(CommandLine.arguments.dropFirst())))
