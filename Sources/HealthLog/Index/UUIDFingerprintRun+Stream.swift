extension UUIDFingerprintRun {
    /// Writes a run of `count` keys covering `from...to`, bound to `binding` and its body
    /// sealed with `cipher`, into `fd` (from byte 0) as it encodes them, so memory holds a
    /// piece of the body, not the run: the same bytes as ``Encoder`` gives. `keys` calls
    /// its argument with every key in ascending order (fingerprint << 32 | block), and is
    /// called twice: the bit vector is written from the first pass, the fields from the
    /// second, each in file order. A sealed body is sealed a page at a time
    /// (``sealPages(_:first:cipher:prefix:into:)``) as its pieces are written.
    ///
    /// - Throws: as `keys`, or when a write fails.
    static func writeStreamed(
        count: Int, from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, into fd: FileDescriptor, keys: ((UInt64) -> Void) throws -> Void
    ) throws {
        try writeStreamed(count: count, from: from, to: to, binding: binding, cipher: cipher, into: fd) { page in try inPages(keys, page) }
    }

    /// Calls `body` with the keys `keys` gives, in their order, a page of up to
    /// ``FingerprintKeySpill/pageKeys`` at a time.
    static func inPages(_ keys: ((UInt64) -> Void) throws -> Void, _ body: (UnsafeBufferPointer<UInt64>) -> Void) rethrows {
        var page: [UInt64] = []
        page.reserveCapacity(FingerprintKeySpill.pageKeys)
        try withoutActuallyEscaping(body) { body in
            try keys { key in
                page.append(key)
                guard page.count == FingerprintKeySpill.pageKeys else { return }
                page.withUnsafeBufferPointer(body)
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { page.withUnsafeBufferPointer(body) }
    }

    /// Writes a run as ``writeStreamed(count:from:to:binding:cipher:into:keys:)`` does, its
    /// keys given a page at a time: `pages` calls its argument with every key in ascending
    /// order, in pages of any length, and is called twice. Each pass goes through a page in
    /// a loop of its own, its state in locals.
    static func writeStreamed(
        count: Int, from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, into fd: FileDescriptor,
        pages: ((UnsafeBufferPointer<UInt64>) -> Void) throws -> Void
    ) throws {
        let lowBits = 32 - highBits(count: count)
        let shift = UUIDFingerprint.blockShift(from: from, to: to)
        let last = lastBlock(from: from, to: to, shift: shift)
        let width = lowBits + bits(for: last)
        let words = Self.words(count: count, lowBits: lowBits, blockBits: width - lowBits)
        let naming = file.prefix { header in
            header.append(from)
            header.append(to)
            header.append(UInt64(count))
            header.append(bytes: [UInt8(lowBits), UInt8(width - lowBits), UInt8(shift), 0])
        }
        var body = BodyWriter(fd, cipher: cipher, prefix: naming)
        if words.total > 0 {
            // The bit vector: key i's bucket b sets bit b + i. Shifts are by less than 64
            // (`lowBits` is at most 32), so the masking shifts are the plain ones.
            var written = 0
            var word: UInt64 = 0
            var i = 0
            var previous: UInt64 = 0
            try pages { page in
                var (w, bits, k, before) = (written, word, i, previous)
                defer { (written, word, i, previous) = (w, bits, k, before) }
                for key in page {
                    precondition(k < count && key >= before, "keys come in order, as many as announced")
                    precondition(key & 0xFFFF_FFFF <= last, "a block of the run")
                    let position = Int(truncatingIfNeeded: (key &>> 32) &>> UInt64(lowBits)) + k
                    while w < position >> 6 {
                        body.append(bits)
                        bits = 0
                        w += 1
                    }
                    bits |= 1 &<< UInt64(position & 63)
                    before = key
                    k += 1
                }
            }
            precondition(i == count, "every announced key was given")
            while written < words.high {
                body.append(word)
                word = 0
                written += 1
            }
            // The fields: key i's block, then its low fingerprint bits, at bit i × width.
            var current: UInt64 = 0
            var next: UInt64 = 0
            written = 0
            i = 0
            let lowMask: UInt64 = (1 << UInt64(lowBits)) - 1
            try pages { page in
                precondition(i + page.count <= count, "as many keys as the first pass")
                guard width > 0 else { return }
                var (w, now, after, k) = (written, current, next, i)
                defer { (written, current, next, i) = (w, now, after, k) }
                for key in page {
                    let bit = k * width
                    while w < bit >> 6 {
                        body.append(now)
                        now = after
                        after = 0
                        w += 1
                    }
                    let value = (key & 0xFFFF_FFFF) &<< UInt64(lowBits) | (key &>> 32) & lowMask
                    let offset = bit & 63
                    now |= value &<< UInt64(offset)
                    // `offset` is above 0 here (a field is at most 64 bits wide).
                    if offset + width > 64 { after |= value &>> UInt64(64 - offset) }
                    k += 1
                }
            }
            while written < words.total - words.high {
                body.append(current)
                current = next
                next = 0
                written += 1
            }
        }
        let checksum = try body.finish()
        let header = file.encode { header in
            header.append(bytes: naming[8...])
            header.append(checksum)
            binding.write(to: &header)
        }
        try fd.write(header, at: 0)
    }

    /// The body of a run being written: words in file order, gathered into pieces that are
    /// sealed (or not) and written after the header's room, their CRC-32C kept.
    private struct BodyWriter {
        private let fd: FileDescriptor
        /// The cipher of a sealed body, if so.
        private let cipher: StoreCipher?
        /// The header bytes a sealed page's place starts with.
        private let prefix: [UInt8]
        /// Plaintext gathered: a piece.
        private var held: [UInt8] = []
        /// A piece's sealed pages.
        private var sealed: [UInt8] = []
        /// The page the piece gathered starts at.
        private var page = 0
        /// Where the next stored byte goes.
        private var offset = UUIDFingerprintRun.headerLength
        /// The CRC-32C of the stored bytes so far.
        private var crc: UInt32 = 0
        /// The first write that failed.
        private var failure: (any Error)?
        /// Plaintext bytes in a piece (whole pages).
        private static let pieceBytes = 64 * UUIDFingerprintRun.pageBytes

        /// A body written into `fd`, sealed with `cipher` in pages placed after `prefix`.
        init(_ fd: FileDescriptor, cipher: StoreCipher?, prefix: [UInt8]) {
            self.fd = fd
            self.cipher = cipher
            self.prefix = prefix
            held.reserveCapacity(Self.pieceBytes)
        }

        /// Appends one word of the body, writing out a full piece; a failed write is kept
        /// for ``finish()`` to throw, and nothing more is written.
        mutating func append(_ word: UInt64) {
            withUnsafeBytes(of: word.littleEndian) { held.append(contentsOf: $0) }
            guard held.count >= Self.pieceBytes else { return }
            guard failure == nil else { return held.removeAll(keepingCapacity: true) }
            do { try flush() } catch { failure = error }
        }

        /// Seals (when sealed) and writes the piece gathered, and lets it go.
        private mutating func flush() throws {
            guard !held.isEmpty else { return }
            if let cipher {
                sealed.removeAll(keepingCapacity: true)
                held.withUnsafeBytes { UUIDFingerprintRun.sealPages($0, first: page, cipher: cipher, prefix: prefix, into: &sealed) }
                page += UUIDFingerprintRun.pageCount(bodyBytes: held.count)
                try put(sealed)
            } else {
                try put(held)
            }
            held.removeAll(keepingCapacity: true)
        }

        /// Writes `bytes` as stored, at the next offset.
        private mutating func put(_ bytes: [UInt8]) throws {
            try fd.write(bytes, at: offset)
            offset += bytes.count
            crc = bytes.withUnsafeBytes { CRC32C.checksum($0, seed: crc) }
        }

        /// Writes what is left; the CRC-32C of the body as stored, 0 for none.
        mutating func finish() throws -> UInt32 {
            if let failure { throw failure }
            try flush()
            return crc
        }
    }
}
