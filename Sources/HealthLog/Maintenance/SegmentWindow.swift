/// A segment file as `recover` reads it (``RecoverScan``): by byte offset, through a window
/// of ``windowBytes`` read with `pread(2)` where the reads fall, so memory holds a window
/// (and a frame larger than one, read on its own), not the segment. A read that fails
/// ends the file there: ``count`` shrinks to what was read, and ``failure`` says why.
final class SegmentWindow {
    /// The bytes a window holds.
    static let windowBytes = 4 << 20
    /// The file's length, or where a read failed.
    private(set) var count: Int
    /// The file's length when it was opened.
    let size: Int
    /// Why a read failed, if one did.
    private(set) var failure: String?
    /// The file.
    private let fd: FileDescriptor
    /// The bytes from ``start``.
    private var window: [UInt8]
    /// The file offset of ``window``'s first byte.
    private var start = 0

    /// The file `fd`, `count` bytes long; it is closed with the window.
    init(_ fd: FileDescriptor, count: Int) {
        self.fd = fd
        self.count = count
        size = count
        window = []
    }

    deinit { fd.close() }

    /// The bytes `range` (within ``count``), read into the window when they are not in it
    /// (or on their own when longer than a window); fewer when a read fails.
    func array(_ range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "bytes within the file")
        if range.lowerBound >= start, range.upperBound <= start + window.count {
            return Array(window[(range.lowerBound - start)..<(range.upperBound - start)])
        }
        if range.count > Self.windowBytes { return read(range) }
        window = read(range.lowerBound..<min(count, range.lowerBound + Self.windowBytes))
        start = range.lowerBound
        let end = min(range.upperBound - start, window.count)
        return Array(window[0..<end])
    }

    /// The byte at `offset` (below ``count``; 0 past a failed read).
    func byte(_ offset: Int) -> UInt8 {
        if offset >= start, offset < start + window.count { return window[offset - start] }
        return array(offset..<offset + 1).first ?? 0
    }

    /// The little-endian `UInt32` at `offset`, or 0 when it does not fit in the file.
    func u32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return ByteReaderValue.u32(array(offset..<offset + 4), 0)
    }

    /// Reads `range` from the file; on a failure, ends the file where the read stopped.
    private func read(_ range: Range<Int>) -> [UInt8] {
        do {
            let bytes = try fd.read(at: range.lowerBound, count: range.count)
            if bytes.count < range.count { count = range.lowerBound + bytes.count }
            return bytes
        } catch let error as HealthLogError {
            failure = error.message
        } catch {
            failure = "\(error)"
        }
        count = range.lowerBound
        return []
    }
}
