#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open segment file, read-only, with the size it had when opened: a reader never
/// looks past that size, so a concurrent writer's later bytes are invisible to it.
final class SegmentFile: Sendable {
    /// The file's name.
    let name: SegmentName
    /// The path relative to the store directory, for messages (`segments/…`).
    let displayPath: String
    /// The descriptor.
    let fd: FileDescriptor
    /// The size when opened.
    let size: Int

    /// Opens the segment `name` of `layout`; `nil` if it vanished (a writer removed a torn leftover).
    init?(_ layout: StoreLayout, _ name: SegmentName) throws {
        let path = layout.segment(baseSeq: name.baseSeq, generation: name.generation)
        do {
            fd = try FileDescriptor.open(path, flags: O_RDONLY)
        } catch let error as HealthLogError {
            if error.errno == ENOENT { return nil }
            throw error
        }
        self.name = name
        self.displayPath = "segments/" + name.fileName
        self.size = try fd.size()
    }

    deinit {
        fd.close()
    }

    /// Reads `count` bytes at `offset`, never past the size seen at open.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        let available = max(0, min(count, size - offset))
        return try fd.read(at: offset, count: available)
    }

    /// Reads bytes into `buffer` (resized to `count`) at `offset`; throws if the file is shorter.
    func read(into buffer: inout [UInt8], at offset: Int, count: Int) throws {
        if buffer.count != count {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: repeatElement(0, count: count))
        }
        let got = offset + count <= size ? try fd.read(into: &buffer, at: offset) : 0
        guard got == count else {
            throw HealthLogError(.corrupt, "\(displayPath) at byte \(offset): file ends inside a frame")
        }
    }

    /// The location string used in messages: `segments/NAME at byte N`.
    func location(_ offset: Int) -> String {
        "\(displayPath) at byte \(offset)"
    }
}

/// One committed batch: where its header and frames are, and what the header says.
struct BatchRef: Sendable {
    /// Index of its segment in ``LogSnapshot/segments``.
    var segment: Int
    /// Offset of the batch header's skippable frame.
    var offset: Int
    /// Offset of each group's frame, in header order.
    var groupOffsets: [Int]
    /// Offset just past the batch's last frame.
    var end: Int
    /// The decoded header.
    var header: BatchHeader
}
