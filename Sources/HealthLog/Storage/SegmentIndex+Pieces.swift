#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a whole sidecar without holding it whole: a compacted segment's, in an encrypted
/// store, holds every batch's dropped list twice (in each sealed header payload and in the
/// sealed copy of the tables), tens of megabytes each.
extension SegmentIndex {
    /// The sidecar of `name` decoded (``decode(_:name:letGo:)``) through a mapping of the
    /// file whose pages go after each MiB read: each entry's payload in an array of its own,
    /// and the sealed copy, if any, beside the index, in memory of its own for the caller to
    /// open where it lies (``OpenedTableCopy/open(owned:header:cipher:batchCount:types:failedAt:)``).
    /// `nil` when missing or when its checksums or shape are wrong, or its header does not
    /// say what its body lists.
    static func readInPieces(_ layout: StoreLayout, _ name: SegmentName) -> (index: SegmentIndex, sealedCopy: [UInt8])? {
        guard let fd = try? FileDescriptor.open(path(layout, name), flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let file = MappedFile(fd), file.count >= headerLength, file.count <= 1 << 30 else { return nil }
        return file.withBytes(0..<file.count) { decode($0, name: name, letGo: file.releaseAll) }
    }
}
