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

// An append allocates and frees buffers of a megabyte or so on several threads, again
// and again (a batch's frames, a partial UUID run, a sealed copy); kept in the heaps of
// the threads that freed them, those would make its peak RSS grow with its input. For
// these commands blocks of 512 KiB and more are mapped of their own; the buffers an
// append reuses (its chunks' prepared lines, its batches' groups) are mapped once. Other
// commands keep 4 MiB, so a read that allocates a buffer per batch takes no page faults
// for it. An import appends in its worker (`healthlog-import`), which sets the same
// threshold for itself. (A comparison, not a `Set` of names: a set's type is made at run
// time, about 50 µs of every command's start.)
let churningCommand = "append"

// The shipping `healthlog`: parse, run, exit. It injects no faults and reads no test hook.
exit(HealthLogCommand.main(Array(CommandLine.arguments.dropFirst()), willRun: { name in
    if name == churningCommand { _ = healthlog_fix_mmap_threshold(512 << 10) }
}))
