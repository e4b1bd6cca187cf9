/// Writing ``DeletedAddIndex`` a block at a time, so a store's deleted adds are never all
/// in memory at once.
extension DeletedAddIndex {
    /// Encodes a sidecar of a known number of entries as they come: each block's stored
    /// bytes go out when it fills, at its place in the file (after the header and the block
    /// table, whose lengths the count gives), and ``finish()`` returns the header and the
    /// table that start the file. Memory holds a block and the table (24 bytes a block).
    struct Encoder {
        /// The entries the file lists.
        let count: Int
        private let coveredSeq: UInt64
        private let binding: LogBinding
        private let cipher: StoreCipher?
        /// The header's first ``placeLength`` bytes, which each sealed unit's place names.
        private let prefix: [UInt8]
        /// The entries of the block being filled.
        private var block: [UInt64] = []
        /// The block table so far, in the clear.
        private var table = ByteWriter()
        /// How many entries were added.
        private var added = 0
        /// Where the next block goes in the file.
        private var offset: Int

        /// An encoder of a file listing `count` entries, covering `1...coveredSeq` of the log
        /// `binding` names, sealed with `cipher` (`nil`: a plaintext store's file).
        init(count: Int, coveredSeq: UInt64, binding: LogBinding, cipher: StoreCipher?) {
            self.count = count
            self.coveredSeq = coveredSeq
            self.binding = binding
            self.cipher = cipher
            prefix = DeletedAddIndex.file.prefix { w in Self.naming(&w, count: count, coveredSeq: coveredSeq) }
            let blocks = (count + blockEntries - 1) / blockEntries
            offset = headerLength + storedTableLength(blocks: blocks, sealed: cipher != nil)
            block.reserveCapacity(min(count, blockEntries))
        }

        /// The header fields that name what the file holds.
        private static func naming(_ w: inout ByteWriter, count: Int, coveredSeq: UInt64) {
            w.append(coveredSeq)
            w.append(UInt64(count))
            w.append(UInt32((count + blockEntries - 1) / blockEntries))
        }

        /// Adds the next entry (ascending, no repeats: the caller's to ensure); `write` gets
        /// the stored bytes of the block it completes and their offset in the file.
        mutating func add(_ seq: UInt64, _ write: (_ bytes: [UInt8], _ offset: Int) throws -> Void) rethrows {
            precondition(added < count, "no more entries than the count given")
            block.append(seq)
            added += 1
            if block.count == blockEntries || added == count { try flush(write) }
        }

        /// Stores the filled block and notes it in the table.
        private mutating func flush(_ write: (_ bytes: [UInt8], _ offset: Int) throws -> Void) rethrows {
            let unit = UInt32((added - 1) / blockEntries + 1)
            var plain = ByteWriter()
            for entry in block { plain.append(entry) }
            let stored = cipher.map { $0.seal(plain.bytes, .derivedFile, place: SmallFile.place(prefix, unit: unit)) } ?? plain.bytes
            table.append(block[0])
            table.append(stored.withUnsafeBytes { CRC32C.checksum($0) })
            table.append(UInt32(0))
            table.append(BatchOrigin.DeletedAddWitness.empty.adding(block).digest)
            try write(stored, offset)
            offset += stored.count
            block.removeAll(keepingCapacity: true)
        }

        /// Once every entry was added: the header and the block table (sealed in an
        /// encrypted store), the file's first bytes.
        func finish() -> [UInt8] {
            precondition(added == count && block.isEmpty, "every entry the count gives was added")
            let storedTable = count == 0 ? table.bytes : cipher.map { $0.seal(table.bytes, .derivedFile, place: SmallFile.place(prefix, unit: 0)) } ?? table.bytes
            return DeletedAddIndex.file.encode(body: storedTable) { w in
                Self.naming(&w, count: count, coveredSeq: coveredSeq)
                w.append(storedTable.withUnsafeBytes { CRC32C.checksum($0) })
                binding.write(to: &w)
                w.append(UInt32(0))
            }
        }
    }

    /// The file's bytes for `entries` (ascending, no repeats), covering `1...coveredSeq` of
    /// the log `binding` names; the table and each block sealed with `cipher` (`nil`: a
    /// plaintext store's file).
    static func encoded(_ entries: [UInt64], coveredSeq: UInt64, binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
        var encoder = Encoder(count: entries.count, coveredSeq: coveredSeq, binding: binding, cipher: cipher)
        var body: [UInt8] = []
        for entry in entries { encoder.add(entry) { bytes, _ in body += bytes } }
        return encoder.finish() + body
    }

    /// Writes the sidecar for `entries`, sealed with `cipher` (temporary file and rename;
    /// not synced: it is derived data, checked when read, like the other indexes).
    static func write(_ layout: StoreLayout, _ entries: [UInt64], coveredSeq: UInt64, binding: LogBinding, cipher: StoreCipher?) throws {
        try write(layout, count: entries.count, coveredSeq: coveredSeq, binding: binding, cipher: cipher) { add in
            for entry in entries { try add(entry) }
        }
    }

    /// Writes the sidecar for the `count` entries `entries` gives, ascending, to the
    /// function it is passed, a block at a time, as ``write(_:_:coveredSeq:binding:cipher:)``
    /// does. When `entries` throws, or gives another number of entries, or one not above
    /// the one before, the old sidecar stays and this throws.
    static func write(
        _ layout: StoreLayout, count: Int, coveredSeq: UInt64, binding: LogBinding, cipher: StoreCipher?,
        entries: (_ add: (UInt64) throws -> Void) throws -> Void
    ) throws {
        try OwnedDirectory.prepare(layout.directory + "/uuids")
        try DurableFile.replace(path(layout), sync: false) { fd in
            var encoder = Encoder(count: count, coveredSeq: coveredSeq, binding: binding, cipher: cipher)
            var given = 0
            var last: UInt64 = 0
            try entries { seq in
                guard given < count, given == 0 || seq > last else {
                    throw HealthLogError(.corrupt, "\(display): the deleted adds to write are not \(count) rising numbers")
                }
                given += 1
                last = seq
                try encoder.add(seq) { bytes, offset in try fd.write(bytes, at: offset) }
            }
            guard given == count else { throw HealthLogError(.corrupt, "\(display): \(given) deleted adds to write, not \(count)") }
            try fd.write(encoder.finish(), at: 0)
        }
    }
}
