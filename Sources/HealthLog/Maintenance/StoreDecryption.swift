#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites an encrypted store in the clear (`restore --decrypt`, on the copy built beside
/// the target before it is verified): every batch opened and written plain, each segment
/// keeping its name (base sequence number and generation) and its segment header, so the
/// store's identity, every sequence number and every anchor stay valid. Then the
/// checkpoint names the head's new offset, the compactions record keeps its generations
/// without the checkpoint moves (which named old offsets), `meta` says plaintext, the key
/// slots are removed, and so are the segment indexes, which the verify pass that follows
/// writes again. Each segment is written to a temporary name, fsynced and renamed over
/// the sealed one; the caller fsyncs the directories.
struct StoreDecryption {
    /// The copy, with the keys that open it.
    let layout: StoreLayout
    /// The test faults (the segment writes go through them).
    let faults: FaultCounter

    /// Rewrites the store; a plaintext one is left as it is.
    func run() throws {
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        guard snapshot.cipher != nil else { return }
        try SegmentRecoding(layout: layout, faults: faults).run(snapshot) { _, plain, _, _ in plain }
        try DurableFile.replace(layout.meta, with: Array(StoreMeta.new(snapshot.meta.storeID, encrypted: false).text.utf8), syncDirectory: false)
        for name in try DirectoryListing.names(in: layout.keySlots) { unlink(layout.keySlots + "/" + name) }
        rmdir(layout.keySlots)
    }
}
