/// Where the import writes a line's bytes as it renders them: an array, or a ``LineSink``.
protocol ByteOutput {
    /// Writes `bytes` at the end.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
    /// Writes `byte` at the end.
    mutating func write(_ byte: UInt8)
}

extension Array: ByteOutput where Element == UInt8 {
    @inline(__always)
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        append(byte)
    }
}

/// The bytes of a line being rendered, in storage kept from line to line (one per mapping
/// thread): a write is one copy into room already there, with none of an array's checks
/// per append (a record's line is written in a few dozen pieces, twice: its canonical
/// form, then the line). Grows when full; ``removeAll()`` keeps the room.
final class LineSink: ByteOutput {
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// The bytes written since ``removeAll()``.
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty sink with room for `capacity` bytes.
    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func write(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Makes room for at least `needed` bytes, keeping those written.
    private func grow(toHold needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        moved.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Forgets what was written, keeping the room.
    func removeAll() {
        count = 0
    }

    /// The bytes written, valid until the next write.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// The bytes written as a new array of exactly their size, with `last` after them.
    func array(appending last: UInt8) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count + 1) { room, initialized in
            UnsafeMutableRawPointer(room.baseAddress!).copyMemory(from: base, byteCount: count)
            room[count] = last
            initialized = count + 1
        }
    }
}
