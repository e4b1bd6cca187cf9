#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The open descriptors behind one snapshot's segments: a segment is opened when a read
/// first needs its bytes, at most ``capacity`` stay open, and the least recently used is
/// closed when another must be opened. A store of any number of segments is read with a
/// handful of descriptors, whatever the process's `RLIMIT_NOFILE`.
///
/// A segment opened lazily must be the file whose size the snapshot recorded (see
/// ``SegmentFile``): the descriptor's device and inode are checked against it, and a
/// segment that was removed, or whose name now belongs to another file, is *vanished*:
/// it reads as empty for the rest of the snapshot.
///
/// Not shareable between threads (a snapshot is used by one thread at a time).
final class SegmentDescriptors {
    /// How many descriptors a snapshot holds at most unless told otherwise.
    static let defaultCapacity = 16

    /// One open segment.
    private struct Entry {
        /// The segment's name.
        let name: SegmentName
        /// Its read-only descriptor.
        let fd: FileDescriptor
        /// The value of ``SegmentDescriptors/uses`` at its latest use.
        var lastUse: UInt64
    }

    /// The most descriptors held at once.
    let capacity: Int
    /// The store whose segments these are.
    private let layout: StoreLayout
    /// The open segments, in no particular order (there are at most ``capacity``).
    private var entries: [Entry] = []
    /// Segments found removed or replaced since the snapshot recorded them.
    private var vanished: Set<SegmentName> = []
    /// How many lookups were made: the clock that orders ``Entry/lastUse``.
    private var uses: UInt64 = 0

    /// An empty set of descriptors for the segments of `layout`, holding at most
    /// `capacity` (at least 1; a smaller value is a programmer error and traps).
    init(_ layout: StoreLayout, capacity: Int = defaultCapacity) {
        precondition(capacity >= 1, "a segment descriptor cache holds at least one descriptor")
        self.layout = layout
        self.capacity = capacity
    }

    deinit {
        for entry in entries { entry.fd.close() }
    }

    /// How many descriptors are open now.
    var openCount: Int { entries.count }

    /// A read-only descriptor of segment `name`, opened now unless one is held, or `nil`
    /// when the segment vanished: no file is there any more (`ENOENT`), or the file there
    /// is not `expected` (another device or inode). The descriptor stays valid until the
    /// next call, which may close it; callers read through it at once and never keep it.
    ///
    /// - Throws: ``HealthLogError`` `.io` when the open or `fstat(2)` fails otherwise (too
    ///   many open files in the process, permissions).
    func descriptor(for name: SegmentName, expected: FileStatus) throws -> FileDescriptor? {
        uses += 1
        if let k = entries.firstIndex(where: { $0.name == name }) {
            entries[k].lastUse = uses
            return entries[k].fd
        }
        if vanished.contains(name) { return nil }
        if entries.count >= capacity, let oldest = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) {
            entries[oldest].fd.close()
            entries.remove(at: oldest)
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(layout.segment(baseSeq: name.baseSeq, generation: name.generation), flags: O_RDONLY)
        } catch let error as HealthLogError {
            guard error.errno == ENOENT else { throw error }
            vanished.insert(name)
            return nil
        }
        let found: FileStatus
        do {
            found = try FileStatus.of(fd)
        } catch {
            fd.close()
            throw error
        }
        guard found.isSameFile(as: expected) else {
            fd.close()
            vanished.insert(name)
            return nil
        }
        entries.append(Entry(name: name, fd: fd, lastUse: uses))
        return fd
    }
}
