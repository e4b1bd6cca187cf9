/// Tunables of a store handle. The defaults suit real use; tests shrink the sizes to force
/// many batches and segments.
public struct StoreOptions: Sendable {
    /// Whether an append waits for `fdatasync` before it reports success (the default).
    /// `false` trades durability across a power loss or OS crash for speed; a crash of the
    /// process alone still loses nothing that was written.
    public var sync = true
    /// The size at which a segment is sealed and a new one started.
    public var segmentBytes = FormatConstants.defaultSegmentBytes
    /// The uncompressed size at which a batch is closed (at most 128 MiB; larger values
    /// act as 128 MiB, so readers' bounds on what a header may claim always hold).
    public var batchBytes = FormatConstants.defaultBatchBytes
    /// The size of a segment's sidecar index past which appends start a new segment
    /// (``LogWriter/defaultMaxIndexBytes``); internal, so tests can fill one with a few appends.
    var segmentIndexBytes = LogWriter.defaultMaxIndexBytes
    /// How many bytes of a segment an append writes before it asks the kernel to start
    /// writing them to disk (with syncs on); internal, so tests can have every batch do it.
    var writebackBytes = 1 << 20
    /// How long a writer waits for another process's writer lock, in seconds.
    public var lockTimeout: Double = 10
    /// Whether reading a directory that holds no store answers as an empty store does
    /// (no samples, no statistics, the ``QueryAnchor/beginning`` anchor), creating
    /// nothing, as HealthKit answers with nothing, instead of throwing
    /// ``HealthLogError/Code/noStore``. Writing creates the store as always.
    public var missingStoreIsEmpty = false
    /// What the appends this handle makes record as their origin (``HealthStore/appendHistory()``
    /// lists it); `nil` records none.
    public var origin: AppendOrigin?
    /// Test hooks: faults to inject (none in real use; `package`, so not product API).
    package var faults = FaultPlan()
    /// The cipher a new key epoch seals with (`init --encrypt`, `key rotate`, `restore
    /// --encrypt`); `nil` takes ``UnitCipher/preferred``.
    package var cipher: UnitCipher?
    /// The UUID index runs this handle's appends and the import's lookups take as checked
    /// once one of them opened and checked them (see ``CheckedUUIDRuns``): an import sets
    /// it for its appends; `nil` (the default), every append opens and checks the chain.
    package var checkedRuns: CheckedUUIDRuns?
    /// Events an append holds in memory for its UUID bookkeeping before it writes them out
    /// sorted (see ``UUIDRunBuilder``); internal, so tests can force many chunks.
    var appendChunkEvents = AppendedUUIDs.defaultChunkEvents
    /// Dropped events a compaction's plan holds in memory before it writes them out sorted
    /// (see ``DroppedEvents``): 2¹⁷ (1 MiB), a plan of 65,536 deletes; internal, so tests
    /// can force many stretches.
    var compactionResidentKeys = 1 << 17

    /// The defaults.
    public init() {}
}
