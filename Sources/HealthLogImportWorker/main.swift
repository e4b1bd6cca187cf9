import CAllocator
import HealthLogImportWorkerKit

// The worker parses the export and appends what it maps, allocating and freeing buffers of
// a megabyte or so on several threads, as an append does: blocks of 512 KiB and more get
// mappings of their own, so those freed on one thread are not kept in another's heap and
// its peak RSS does not grow with the export.
_ = healthlog_fix_mmap_threshold(512 << 10)
// And its threads share two heaps rather than one each: a block freed by the thread that
// appends is reused by the one that maps, not kept apart in a heap of its own (about 3 MB
// of the peak at any export size; the same speed at 1.6M records, a few percent slower
// at 4M).
_ = healthlog_limit_arenas(2)

// `healthlog-import`, the worker `healthlog import` runs (see `ImportWorkerMain`). It
// injects no faults: a fault plan among its arguments is refused.
ImportWorkerMain.run(Array(CommandLine.arguments.dropFirst()), acceptsFaults: false)
