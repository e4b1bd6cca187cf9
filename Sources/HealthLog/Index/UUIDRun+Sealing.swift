/// A run written for an encrypted store's append (``UUIDRun/sealing`` set) holds no UUID
/// in the clear: its header (range, counts) stays readable and says the run is sealed (its
/// last field 1, not 0); the block table is one sealed block (``ScratchCipher``, place:
/// the run's range and count), and the entries are sealed a page of ``UUIDRun/pageEntries``
/// at a time (place: the run's range and the page's index), so a lookup opens the 4 KB it
/// reads. The table's CRC-32C covers its stored bytes; each block's CRC-32C, inside the
/// sealed table, its plain entries, checked after they are opened as for a plain run.
extension UUIDRun {
    /// The bytes a full page of entries takes sealed.
    static let sealedPageLength = pageEntries * entryLength + ScratchCipher.overhead

    /// The pages a sealed run's writer seals and writes at a time.
    static let sealedPiecePages = 64

    /// The bytes the block table of `blocks` blocks takes in the file.
    static func storedTableLength(blocks: Int, sealed: Bool) -> Int {
        blocks * tableEntryLength + (sealed ? ScratchCipher.overhead : 0)
    }

    /// The bytes `count` entries take in the file.
    static func storedEntriesLength(count: Int, sealed: Bool) -> Int {
        count * entryLength + (sealed ? (count + pageEntries - 1) / pageEntries * ScratchCipher.overhead : 0)
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
        body.withUnsafeBytes { sealedPages($0, first: first, from: from, to: to, sealing: sealing) }
    }

    /// ``sealedPages(_:first:from:to:sealing:)`` of plain entries read in place.
    static func sealedPages(_ plain: UnsafeRawBufferPointer, first: Int, from: UInt64, to: UInt64, sealing: ScratchCipher) -> [UInt8] {
        let pageLength = pageEntries * entryLength
        let pages = (plain.count + pageLength - 1) / pageLength
        var out = [UInt8](repeating: 0, count: plain.count + pages * ScratchCipher.overhead)
        out.withUnsafeMutableBytes { target in
            for page in 0..<pages {
                let start = page * pageLength
                let end = min(plain.count, start + pageLength)
                let at = page * sealedPageLength
                sealing.seal(
                    UnsafeRawBufferPointer(rebasing: plain[start..<end]), .uuidRunPage, place: (from, to, UInt64(first / pageEntries + page)),
                    into: UnsafeMutableRawBufferPointer(rebasing: target[at..<at + end - start + ScratchCipher.overhead]))
            }
        }
        return out
    }

    /// Reads entries `range` (from a page's first) from `fd`, this run's file, into `out`
    /// (made `range.count` entries long), opening their pages when the run is sealed;
    /// `false` when the file ends early.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the file and byte when a page does
    ///   not open; as ``FileDescriptor/read(into:at:)``.
    func readEntries(_ range: Range<Int>, from fd: FileDescriptor, into out: inout [UInt8]) throws -> Bool {
        let length = range.count * Self.entryLength
        SegmentFile.resize(&out, to: length)
        guard let sealing else { return try fd.read(into: &out, at: entryOffset(range.lowerBound)) == length }
        let at = entryOffset(range.lowerBound)
        var stored: [UInt8] = []
        let isPage = range.count <= Self.pageEntries
        if isPage { swap(&stored, &self.stored) }
        defer { if isPage { swap(&stored, &self.stored) } }
        SegmentFile.resize(&stored, to: Self.storedEntriesLength(count: range.count, sealed: true))
        guard try fd.read(into: &stored, at: at) == stored.count else { return false }
        let firstPage = range.lowerBound / Self.pageEntries
        let pageLength = Self.pageEntries * Self.entryLength
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
