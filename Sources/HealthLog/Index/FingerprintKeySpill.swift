/// Sorted stretches of 64-bit keys in an unlinked scratch file (``ScratchFiles``), merged
/// back in ascending order a page of each at a time: an append's fingerprint keys
/// (``UUIDFingerprintRun/Events``) in bounded memory, whatever the append's size. Every
/// ``fanIn`` stretches of one size are merged into one as they are written (the merge of
/// an external sort with bounded fan-in), so the final merge holds a page of a few dozen
/// stretches however many were written, and their room on disk is given back.
///
/// A stretch is written as pages of ``pageKeys`` keys (little-endian). For an encrypted
/// store each page is sealed (``ScratchCipher``, of the spill's kind: by default
/// ``ScratchCipher/Kind/fingerprintKeys``; place: the stretch's number, never given twice,
/// the page and its key count),
/// so the file holds no key in the clear and a page changed, moved or cut short does not
/// open. An append's deleted adds (``WriterState``) and a compaction's dropped events
/// (``DroppedEvents``) are spilled the same way, as their kinds.
final class FingerprintKeySpill {
    /// Keys per page.
    static let pageKeys = 4096
    /// Stretches of one size merged into one as soon as this many lie at the end of the
    /// file, so a merge holds a page of at most this many stretches a size (a few sizes:
    /// each is this many times the one before).
    static let fanIn = 32
    /// Pages filled before they are written, at most.
    static let pagesPerWrite = 4
    /// The cipher sealing the pages; `nil`: keys in the clear.
    private let sealing: ScratchCipher?
    /// What the pages are sealed as.
    private let kind: ScratchCipher.Kind
    /// The scratch file, made on the first stretch.
    private(set) var file: FileDescriptor?
    /// Each stretch, in the order its keys come (a merged stretch stands where the stretches
    /// it holds stood): its first byte in the file, its key count, the number its pages are
    /// sealed with (never used twice) and how many merges made it.
    private var stretches: [(offset: Int, count: Int, id: Int, level: Int)] = []
    /// The number the next stretch's pages are sealed with.
    private var nextID = 0
    /// The bytes written.
    private var length = 0
    /// The bytes of the pages being written and a page of keys, reused from one write to
    /// the next (fresh memory would have the kernel fault it in and zero it every time).
    private var out: [UInt8] = []
    private var outCount = 0
    private var plain: [UInt8] = []

    /// Whether the keys are written in ascending order across writes (a merge's output),
    /// to be read back as written (``forEachWrittenPage(_:)``, ``WrittenKeys``): its
    /// stretches are never merged.
    private let isOrdered: Bool

    /// An empty spill whose pages are sealed with `sealing` (an encrypted store's) as
    /// blocks of `kind`, or in the clear; `ordered` when every write's keys follow the
    /// keys written before.
    init(sealing: ScratchCipher?, kind: ScratchCipher.Kind = .fingerprintKeys, ordered: Bool = false) {
        self.sealing = sealing
        self.kind = kind
        isOrdered = ordered
    }

    /// An empty spill sealed as `other` is (or in the clear as it is); `ordered` when every
    /// write's keys follow the keys written before.
    convenience init(like other: FingerprintKeySpill, ordered: Bool = false) {
        self.init(sealing: other.sealing, kind: other.kind, ordered: ordered)
    }

    /// Closes the scratch file (which is gone once closed).
    deinit { file?.close() }

    /// How many stretches there are.
    var stretchCount: Int { stretches.count }

    /// The bytes a page of `count` keys takes in the file.
    private func storedLength(_ count: Int) -> Int {
        count * 8 + (sealing == nil ? 0 : ScratchCipher.overhead)
    }

    /// Writes `keys` (ascending) as a stretch of their own, then, unless the spill is
    /// ordered, merges the stretches at the end of the file while ``fanIn`` of one size lie
    /// there.
    func write(_ keys: UnsafeBufferPointer<UInt64>) throws {
        let (id, offset) = try beginStretch()
        for first in stride(from: 0, to: keys.count, by: Self.pageKeys) {
            try writePage(UnsafeBufferPointer(rebasing: keys[first..<min(keys.count, first + Self.pageKeys)]), id: id, page: first / Self.pageKeys)
        }
        try endStretch((offset, keys.count, id, 0))
        while !isOrdered, stretches.count >= Self.fanIn, stretches.suffix(Self.fanIn).allSatisfy({ $0.level == stretches.last!.level }) {
            try mergeLast(Self.fanIn)
        }
    }

    /// Opens the scratch file on the first stretch; the next stretch's number and first byte.
    private func beginStretch() throws -> (id: Int, offset: Int) {
        if file == nil { file = try ScratchFiles.makeUnlinkedFile(prefix: "healthlog-keys-") }
        outCount = 0
        out.resize(forOverwrite: Self.pagesPerWrite * storedLength(Self.pageKeys))
        plain.resize(forOverwrite: Self.pageKeys * 8)
        nextID += 1
        return (nextID - 1, length)
    }

    /// Adds page `page` of the stretch `id`, writing the pages filled when they are
    /// ``pagesPerWrite``.
    private func writePage(_ keys: UnsafeBufferPointer<UInt64>, id: Int, page: Int) throws {
        let stored = storedLength(keys.count)
        out.withUnsafeMutableBytes { out in
            plain.withUnsafeMutableBytes { plain in
                for k in keys.indices { plain.storeBytes(of: keys[k].littleEndian, toByteOffset: k * 8, as: UInt64.self) }
                let bytes = UnsafeRawBufferPointer(rebasing: plain[0..<keys.count * 8])
                let target = UnsafeMutableRawBufferPointer(rebasing: out[outCount..<outCount + stored])
                if let sealing {
                    sealing.seal(bytes, kind, place: (UInt64(id), UInt64(page), UInt64(keys.count)), into: target)
                } else {
                    target.copyMemory(from: bytes)
                }
            }
        }
        outCount += stored
        if outCount + storedLength(Self.pageKeys) > out.count { try flush() }
    }

    /// Writes the pages filled.
    private func flush() throws {
        guard outCount > 0, let file else { return }
        try out.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<outCount]), at: length) }
        length += outCount
        outCount = 0
    }

    /// Writes the last pages of `stretch` and lists it.
    private func endStretch(_ stretch: (offset: Int, count: Int, id: Int, level: Int)) throws {
        try flush()
        stretches.append(stretch)
    }

    /// Merges the last `count` stretches into one at the end of the file, standing where
    /// they stood, and gives their room on disk back.
    private func mergeLast(_ count: Int) throws {
        let merged = stretches.suffix(count)
        var readers = try merged.indices.map { try Reader(self, stretch: $0) }
        let (id, offset) = try beginStretch()
        var page: [UInt64] = []
        page.reserveCapacity(Self.pageKeys)
        var pages = 0
        try Self.merge(&readers, with: UnsafeBufferPointer(start: nil, count: 0)) { key in
            page.append(key)
            if page.count == Self.pageKeys {
                try page.withUnsafeBufferPointer { try writePage($0, id: id, page: pages) }
                pages += 1
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { try page.withUnsafeBufferPointer { try writePage($0, id: id, page: pages) } }
        let first = merged.first!.offset
        let level = merged.first!.level + 1
        let total = merged.reduce(0) { $0 + $1.count }
        stretches.removeLast(count)
        try endStretch((offset, total, id, level))
        file?.releaseRange(at: first, count: offset - first)
    }

    /// Calls `body` with every key of the stretches and of `resident` (ascending, in
    /// memory), in ascending order; holds a page of each stretch left.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file cannot be read,
    ///   ``HealthLogError/Code/corrupt`` when a page is cut short or does not open; what
    ///   `body` throws.
    func merge(with resident: UnsafeBufferPointer<UInt64>, _ body: (UInt64) throws -> Void) throws {
        var readers = try stretches.indices.map { try Reader(self, stretch: $0) }
        try Self.merge(&readers, with: resident, body)
    }

    /// Calls `body` with every key of `readers` and `resident` in ascending order.
    private static func merge(_ readers: inout [Reader], with resident: UnsafeBufferPointer<UInt64>, _ body: (UInt64) throws -> Void) throws {
        // A binary heap of (key, source) by key; source `readers.count` is `resident`.
        var heap: [(key: UInt64, source: Int)] = []
        heap.reserveCapacity(readers.count + 1)
        var residentAt = 0
        func push(_ entry: (key: UInt64, source: Int)) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0, heap[(child - 1) / 2].key > heap[child].key {
                heap.swapAt(child, (child - 1) / 2)
                child = (child - 1) / 2
            }
        }
        func next(_ source: Int) throws -> UInt64? {
            if source == readers.count {
                guard residentAt < resident.count else { return nil }
                residentAt += 1
                return resident[residentAt - 1]
            }
            return try readers[source].next()
        }
        for source in 0...readers.count {
            if let key = try next(source) { push((key, source)) }
        }
        while let top = heap.first {
            try body(top.key)
            if let key = try next(top.source) {
                heap[0] = (key, top.source)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let least = left + 1 < heap.count && heap[left + 1].key < heap[left].key ? left + 1 : left
                guard heap[least].key < heap[parent].key else { break }
                heap.swapAt(parent, least)
                parent = least
            }
        }
    }

    /// Calls `body` with every page of keys written, stretch after stretch in the order
    /// written: for a spill of keys written in ascending order already (a merge's output),
    /// the ascending order without merging again.
    ///
    /// - Throws: as ``merge(with:_:)``.
    func forEachWrittenPage(_ body: (UnsafeBufferPointer<UInt64>) throws -> Void) throws {
        for stretch in stretches.indices {
            var reader = try Reader(self, stretch: stretch)
            while try reader.nextPage(body) {}
        }
    }

    /// Every key written, one at a time, stretch after stretch in the order written (a
    /// page held): for a spill written in ascending order (a merge's output), its keys
    /// ascending.
    struct WrittenKeys {
        private let spill: FingerprintKeySpill
        /// The stretch being read, and its reader once opened.
        private var stretch = 0
        private var reader: Reader?

        /// Reads `spill` from its first key.
        init(_ spill: FingerprintKeySpill) {
            self.spill = spill
        }

        /// The next key, or `nil` past the last.
        ///
        /// - Throws: as ``FingerprintKeySpill/merge(with:_:)``.
        mutating func next() throws -> UInt64? {
            while stretch < spill.stretches.count {
                if reader == nil { reader = try Reader(spill, stretch: stretch) }
                if let key = try reader!.next() { return key }
                reader = nil
                stretch += 1
            }
            return nil
        }
    }

    /// Reads one stretch a page at a time, into the same buffers page after page.
    private struct Reader {
        let spill: FingerprintKeySpill
        let stretch: Int
        /// The stretch's page being read, opened.
        var keys: [UInt64] = []
        var at = 0
        /// The next page to load.
        var page = 0
        /// The sealed page read last (a sealed spill's).
        var stored: [UInt8] = []

        init(_ spill: FingerprintKeySpill, stretch: Int) throws {
            self.spill = spill
            self.stretch = stretch
        }

        /// The stretch's next key, or `nil` past its last.
        mutating func next() throws -> UInt64? {
            if at == keys.count {
                guard try load() else { return nil }
            }
            at += 1
            return keys[at - 1]
        }

        /// Calls `body` with the stretch's next page of keys; `false` past the last.
        mutating func nextPage(_ body: (UnsafeBufferPointer<UInt64>) throws -> Void) throws -> Bool {
            guard try load() else { return false }
            at = keys.count
            try keys.withUnsafeBufferPointer(body)
            return true
        }

        /// Loads the next page; `false` past the last. A page in the clear is read straight
        /// into ``keys``, a sealed one opened into it.
        private mutating func load() throws -> Bool {
            let (offset, total, id, _) = spill.stretches[stretch]
            let first = page * FingerprintKeySpill.pageKeys
            guard first < total, let file = spill.file else { return false }
            let count = min(FingerprintKeySpill.pageKeys, total - first)
            let start = offset + page * spill.storedLength(FingerprintKeySpill.pageKeys)
            let endsEarly = HealthLogError(.corrupt, "\(file.path) at byte \(start): the scratch file of sorted keys ends early")
            if keys.count != count { keys = [UInt64](repeating: 0, count: count) }
            if let sealing = spill.sealing {
                stored.resize(forOverwrite: spill.storedLength(count))
                guard try file.read(into: &stored, at: start) == stored.count else { throw endsEarly }
                let (kind, place) = (spill.kind, (UInt64(id), UInt64(page), UInt64(count)))
                let opened = stored.withUnsafeBytes { sealed in keys.withUnsafeMutableBytes { sealing.open(sealed, kind, place: place, into: $0) } }
                guard opened else { throw HealthLogError(.corrupt, "\(file.path) at byte \(start): the sealed keys of a scratch file do not open (changed or cut short)") }
            } else {
                guard try keys.withUnsafeMutableBytes({ try file.read(into: $0, at: start) }) == count * 8 else { throw endsEarly }
            }
            for k in 0..<count { keys[k] = UInt64(littleEndian: keys[k]) }
            at = 0
            page += 1
            return true
        }
    }
}
