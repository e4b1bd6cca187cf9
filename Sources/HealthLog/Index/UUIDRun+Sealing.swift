/// A run written for an encrypted store's append (``UUIDRun/sealing`` set) holds no UUID
/// in the clear: its header (range, counts) stays readable and says the run is sealed (its
/// last field 1, not 0); the block table is one sealed block (``ScratchCipher``, place:
/// the run's range and count), and the entries are sealed a page of
/// ``UUIDRun/sealedPageEntries`` at a time (place: the run's range and the page's index).
/// The table's CRC-32C covers its stored bytes; each block's CRC-32C, inside the sealed
/// table, its plain entries, checked after they are opened as a merge reads them.
///
/// A lookup in a sealed run opens about 1 KB, not a block: each page opened is
/// authenticated on its own, so the block's checksum is not needed to trust it, and the
/// page is found from the high halves of the pages' first UUIDs kept in memory for an
/// append's chunk run (``UUIDRun/sealedPageHighs``), else by interpolation
/// (``sealedLookup(_:block:)``).
extension UUIDRun {
    /// Entries per sealed page: 1 KB, so a lookup (an append's delete) opens little more
    /// than it reads, while sealing a page costs little more than its bytes.
    static let sealedPageEntries = 32

    /// The bytes a full page of entries takes sealed.
    static let sealedPageLength = sealedPageEntries * entryLength + ScratchCipher.overhead

    /// The pages a sealed run's writer seals and writes at a time.
    static let sealedPiecePages = 256

    /// The bytes the block table of `blocks` blocks takes in the file.
    static func storedTableLength(blocks: Int, sealed: Bool) -> Int {
        blocks * tableEntryLength + (sealed ? ScratchCipher.overhead : 0)
    }

    /// The bytes `count` entries take in the file.
    static func storedEntriesLength(count: Int, sealed: Bool) -> Int {
        count * entryLength + (sealed ? (count + sealedPageEntries - 1) / sealedPageEntries * ScratchCipher.overhead : 0)
    }

    /// The block table `table` as stored in the run covering `from...to` of `count` entries.
    static func storedTable(_ table: [UInt8], from: UInt64, to: UInt64, count: Int, sealing: ScratchCipher?) -> [UInt8] {
        guard let sealing else { return table }
        return table.withUnsafeBytes { sealing.seal($0, .uuidRunTable, place: (from, to, UInt64(count))) }
    }

    /// The plain block table of a run covering `from...to` of `count` entries, from its
    /// stored bytes; `nil` when it does not open.
    static func openedTable(_ stored: [UInt8], from: UInt64, to: UInt64, count: Int, sealing: ScratchCipher?) -> [UInt8]? {
        guard let sealing else { return stored }
        guard stored.count >= ScratchCipher.overhead else { return nil }
        var table = [UInt8](repeating: 0, count: stored.count - ScratchCipher.overhead)
        let opened = stored.withUnsafeBytes { sealed in
            table.withUnsafeMutableBytes { sealing.open(sealed, .uuidRunTable, place: (from, to, UInt64(count)), into: $0) }
        }
        return opened ? table : nil
    }

    /// `body`, the plain entries from entry `first` (a page's first) of the run covering
    /// `from...to`, as stored: sealed a page at a time.
    static func sealedPages(_ body: [UInt8], first: Int, from: UInt64, to: UInt64, sealing: ScratchCipher) -> [UInt8] {
        var out: [UInt8] = []
        body.withUnsafeBytes { sealedPages($0, first: first, from: from, to: to, sealing: sealing, into: &out) }
        return out
    }

    /// ``sealedPages(_:first:from:to:sealing:)`` of plain entries read in place, written into
    /// `out`, whose bytes it replaces (its room is kept, so a writer sealing piece after piece
    /// reuses one buffer).
    static func sealedPages(_ plain: UnsafeRawBufferPointer, first: Int, from: UInt64, to: UInt64, sealing: ScratchCipher, into out: inout [UInt8]) {
        let pageLength = sealedPageEntries * entryLength
        let pages = (plain.count + pageLength - 1) / pageLength
        // The sealed pages fill it end to end.
        out.resize(forOverwrite: plain.count + pages * ScratchCipher.overhead)
        out.withUnsafeMutableBytes { target in
            for page in 0..<pages {
                let start = page * pageLength
                let end = min(plain.count, start + pageLength)
                let at = page * sealedPageLength
                sealing.seal(
                    UnsafeRawBufferPointer(rebasing: plain[start..<end]), .uuidRunPage, place: (from, to, UInt64(first / sealedPageEntries + page)),
                    into: UnsafeMutableRawBufferPointer(rebasing: target[at..<at + end - start + ScratchCipher.overhead]))
            }
        }
    }

    /// The high half of the first UUID of each sealed page of a run of `entries` (sorted by
    /// UUID), for its ``sealedPageHighs``.
    static func pageHighs(_ entries: [Entry]) -> [UInt64] {
        stride(from: 0, to: entries.count, by: sealedPageEntries).map { entries[$0].uuid.high }
    }

    /// The entry of `uuid` in block `block` of this sealed run, or `nil`. The page that may
    /// hold it is the last whose first UUID is at most `uuid`: the first page opened is the
    /// last whose first UUID's high half is at most the UUID's when ``sealedPageHighs`` are
    /// kept (the page that holds it, but for UUIDs sharing a high half), else the first two
    /// are guessed by interpolation on the UUIDs' high halves between what is known to bound
    /// them (random UUIDs spread evenly, so the first nearly always holds it or is next to
    /// it); the rest by halving, so any spread of UUIDs takes a few opens at most.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a page read does not open or the file
    ///   ends early (the run is then marked damaged).
    func sealedLookup(_ uuid: SampleUUID, block: Int) throws -> Entry? {
        let start = block * Self.blockEntries
        let end = min(count, start + Self.blockEntries)
        // The pages `low...high` hold the UUID if the run does; their UUIDs' high halves lie
        // within `lowKey...highKey`, and so does the UUID's.
        var low = 0
        var high = (end - start - 1) / Self.sealedPageEntries
        var lowKey = firstUUIDs[block].high
        var highKey = block + 1 < firstUUIDs.count ? firstUUIDs[block + 1].high : UInt64.max
        var opened = 0
        while true {
            var page = (low + high) / 2
            if opened == 0, let highs = sealedPageHighs {
                let first = start / Self.sealedPageEntries
                page = min(high, max(low, Self.lastIndex(atMost: uuid.high, in: highs[first...first + high]) - first))
            } else if opened < 2, highKey > lowKey {
                let fraction = Double(uuid.high &- lowKey) / Double(highKey - lowKey)
                page = min(high, max(low, low + Int(fraction * Double(high - low + 1))))
            }
            opened += 1
            let pageStart = start + page * Self.sealedPageEntries
            try read(pageStart..<min(end, pageStart + Self.sealedPageEntries))
            let entries = buffer.count / Self.entryLength
            let (first, last) = buffer.withUnsafeBytes { (Self.entry($0, 0).uuid, Self.entry($0, entries - 1).uuid) }
            if uuid < first {
                guard page > low else { return nil }
                high = page - 1
                highKey = first.high
            } else if uuid > last, page < high {
                low = page + 1
                lowKey = last.high
            } else {
                return search(uuid, entries: entries)
            }
        }
    }

    /// Reads entries `range` (from a sealed page's first) from `fd`, this run's file, into `out`
    /// (made `range.count` entries long), opening their pages when the run is sealed;
    /// `false` when the file ends early.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the file and byte when a page does
    ///   not open; as ``FileDescriptor/read(into:at:)``.
    func readEntries(_ range: Range<Int>, from fd: FileDescriptor, into out: inout [UInt8]) throws -> Bool {
        let length = range.count * Self.entryLength
        out.resize(forOverwrite: length)
        guard let sealing else { return try fd.read(into: &out, at: entryOffset(range.lowerBound)) == length }
        let at = entryOffset(range.lowerBound)
        var stored: [UInt8] = []
        let isPage = range.count <= Self.sealedPageEntries
        if isPage { swap(&stored, &self.stored) }
        defer { if isPage { swap(&stored, &self.stored) } }
        stored.resize(forOverwrite: Self.storedEntriesLength(count: range.count, sealed: true))
        guard try fd.read(into: &stored, at: at) == stored.count else { return false }
        sealedBytesOpened += stored.count
        let firstPage = range.lowerBound / Self.sealedPageEntries
        let pageLength = Self.sealedPageEntries * Self.entryLength
        let opened = stored.withUnsafeBytes { sealed in
            out.withUnsafeMutableBytes { plain in
                var start = 0
                var page = 0
                while start < length {
                    let end = min(length, start + pageLength)
                    let from = page * Self.sealedPageLength
                    guard
                        sealing.open(
                            UnsafeRawBufferPointer(rebasing: sealed[from..<from + end - start + ScratchCipher.overhead]), .uuidRunPage,
                            place: (fromSeq, toSeq, UInt64(firstPage + page)), into: UnsafeMutableRawBufferPointer(rebasing: plain[start..<end]))
                    else { return false }
                    start = end
                    page += 1
                }
                return true
            }
        }
        guard opened else {
            isDamaged = true
            throw HealthLogError(.corrupt, "\(path) at byte \(at): sealed entries do not open (changed or cut short)")
        }
        return true
    }
}
