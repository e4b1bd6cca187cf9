/// Sorted stretches of 64-bit keys in an unlinked scratch file (``ScratchFiles``), merged
/// back in ascending order a page of each at a time: an append's fingerprint keys
/// (``UUIDFingerprintRun/Events``) in bounded memory, whatever the append's size.
///
/// A stretch is written as pages of ``pageKeys`` keys (little-endian). For an encrypted
/// store each page is sealed (``ScratchCipher``, of the spill's kind: by default
/// ``ScratchCipher/Kind/fingerprintKeys``; place: the stretch, the page and its key count),
/// so the file holds no key in the clear and a page changed, moved or cut short does not
/// open. An append's deleted adds (``WriterState``) and a compaction's dropped events
/// (``DroppedEvents``) are spilled the same way, as their kinds.
final class FingerprintKeySpill {
    /// Keys per page.
    static let pageKeys = 4096
    /// The cipher sealing the pages; `nil`: keys in the clear.
    private let sealing: ScratchCipher?
    /// What the pages are sealed as.
    private let kind: ScratchCipher.Kind
    /// The scratch file, made on the first stretch.
    private(set) var file: FileDescriptor?
    /// Each stretch's first byte in the file and its key count.
    private var stretches: [(offset: Int, count: Int)] = []
    /// The bytes written.
    private var length = 0
    /// The bytes of the stretch written last and a page of its keys, whose room the next
    /// stretch reuses (half a megabyte a stretch, which fresh memory would have the kernel
    /// fault in and zero every time).
    private var out: [UInt8] = []
    private var plain: [UInt8] = []

    /// An empty spill whose pages are sealed with `sealing` (an encrypted store's) as
    /// blocks of `kind`, or in the clear.
    init(sealing: ScratchCipher?, kind: ScratchCipher.Kind = .fingerprintKeys) {
        self.sealing = sealing
        self.kind = kind
    }

    /// An empty spill sealed as `other` is (or in the clear as it is).
    convenience init(like other: FingerprintKeySpill) {
        self.init(sealing: other.sealing, kind: other.kind)
    }

    /// Closes the scratch file (which is gone once closed).
    deinit { file?.close() }

    /// How many stretches were written.
    var stretchCount: Int { stretches.count }

    /// The bytes a page of `count` keys takes in the file.
    private func storedLength(_ count: Int) -> Int {
        count * 8 + (sealing == nil ? 0 : ScratchCipher.overhead)
    }

    /// Writes `keys` (ascending) as a stretch of their own.
    func write(_ keys: UnsafeBufferPointer<UInt64>) throws {
        let target = try file ?? ScratchFiles.makeUnlinkedFile(prefix: "healthlog-keys-")
        file = target
        let stretch = stretches.count
        stretches.append((length, keys.count))
        // Both filled before they are read: the pages fill `out` end to end.
        out.resize(forOverwrite: (keys.count + Self.pageKeys - 1) / Self.pageKeys * storedLength(0) + keys.count * 8)
        plain.resize(forOverwrite: Self.pageKeys * 8)
        var at = 0
        out.withUnsafeMutableBytes { out in
            plain.withUnsafeMutableBytes { plain in
                for first in stride(from: 0, to: keys.count, by: Self.pageKeys) {
                    let count = min(Self.pageKeys, keys.count - first)
                    for k in 0..<count { plain.storeBytes(of: keys[first + k].littleEndian, toByteOffset: k * 8, as: UInt64.self) }
                    let bytes = UnsafeRawBufferPointer(rebasing: plain[0..<count * 8])
                    let target = UnsafeMutableRawBufferPointer(rebasing: out[at..<at + storedLength(count)])
                    if let sealing {
                        sealing.seal(bytes, kind, place: (UInt64(stretch), UInt64(first / Self.pageKeys), UInt64(count)), into: target)
                    } else {
                        target.copyMemory(from: bytes)
                    }
                    at += target.count
                }
            }
        }
        try target.write(out, at: length)
        length += out.count
    }

    /// Calls `body` with every key of the stretches and of `resident` (ascending, in
    /// memory), in ascending order; holds a page of each stretch.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file cannot be read,
    ///   ``HealthLogError/Code/corrupt`` when a page is cut short or does not open; what
    ///   `body` throws.
    func merge(with resident: UnsafeBufferPointer<UInt64>, _ body: (UInt64) throws -> Void) throws {
        var readers = try stretches.indices.map { try Reader(self, stretch: $0) }
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
            let (offset, total) = spill.stretches[stretch]
            let first = page * FingerprintKeySpill.pageKeys
            guard first < total, let file = spill.file else { return false }
            let count = min(FingerprintKeySpill.pageKeys, total - first)
            let start = offset + page * spill.storedLength(FingerprintKeySpill.pageKeys)
            let endsEarly = HealthLogError(.corrupt, "\(file.path) at byte \(start): the scratch file of sorted keys ends early")
            if keys.count != count { keys = [UInt64](repeating: 0, count: count) }
            if let sealing = spill.sealing {
                stored.resize(forOverwrite: spill.storedLength(count))
                guard try file.read(into: &stored, at: start) == stored.count else { throw endsEarly }
                let (kind, place) = (spill.kind, (UInt64(stretch), UInt64(page), UInt64(count)))
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
