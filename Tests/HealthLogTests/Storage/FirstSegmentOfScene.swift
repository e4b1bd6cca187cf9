@testable import HealthLog

/// The first segment of an ``IndexFixture/Scene``'s store, as the sidecar tests read it:
/// walked without indexes, with its batches and its sidecar's summary.
struct FirstSegmentOfScene {
    /// The store's files.
    let layout: StoreLayout
    /// The store opened without its sidecars (every batch header walked).
    let snapshot: LogSnapshot
    /// The segment.
    let file: SegmentFile
    /// Its batches, from the walk.
    let batches: [BatchRef]
    /// Its sidecar's summary.
    let summary: SegmentIndex.Summary
    /// The store's tag, which every batch header carries.
    let tag: UInt64

    /// The first segment of `scene`'s store; throws when it has no sidecar summary.
    init(_ scene: IndexFixture.Scene) throws {
        layout = StoreLayout(directory: scene.path)
        snapshot = try LogSnapshot(layout, usingIndexes: false)
        file = snapshot.segments[0]
        batches = try snapshot.batches(inSegment: 0)
        guard let summary = SegmentIndex.readSummary(layout, file.name) else {
            throw HealthLogError(.corrupt, "\(file.name.fileName): no sidecar summary")
        }
        self.summary = summary
        tag = snapshot.meta.storeID.tag
    }
}
