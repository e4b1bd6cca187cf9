#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UUIDRun {
    /// Reads a run's entries in UUID order one block at a time with `pread(2)`, checking
    /// each block's CRC-32C, so a merge or a comparison holds two blocks of input, not two
    /// runs. The owner calls ``close()``.
    struct BlockCursor {
        /// The run read.
        let run: UUIDRun
        private let fd: FileDescriptor
        private var nextBlock = 0
        private var entries: [Entry] = []
        private var index = 0

        /// Opens `run` and reads its first block; throws ``HealthLogError/Code/corrupt``
        /// when that block fails its checksum.
        init(_ run: UUIDRun) throws {
            self.run = run
            fd = try FileDescriptor.open(run.path, flags: O_RDONLY)
            do {
                try load()
            } catch {
                fd.close()
                throw error
            }
        }

        /// The entry at the cursor, or `nil` past the last.
        var current: Entry? { index < entries.count ? entries[index] : nil }

        /// Closes the file.
        func close() { fd.close() }

        /// Moves to the next entry, reading the next block when this one is done; throws
        /// ``HealthLogError/Code/corrupt`` when that block fails its checksum.
        mutating func advance() throws {
            index += 1
            if index == entries.count { try load() }
        }

        private mutating func load() throws {
            entries.removeAll(keepingCapacity: true)
            index = 0
            guard nextBlock < run.blockCRCs.count else { return }
            let start = nextBlock * UUIDRun.blockEntries
            let end = min(run.count, start + UUIDRun.blockEntries)
            let bytes = try fd.read(at: run.entryOffset(start), count: (end - start) * UUIDRun.entryLength)
            let block = nextBlock
            let isSound = bytes.count == (end - start) * UUIDRun.entryLength && bytes.withUnsafeBytes { CRC32C.checksum($0) } == run.blockCRCs[block]
            guard isSound else {
                run.isDamaged = true
                throw HealthLogError(.corrupt, "\(run.path) at byte \(run.entryOffset(start)): block \(block) fails its checksum")
            }
            bytes.withUnsafeBytes { raw in
                for k in 0..<(end - start) { entries.append(UUIDRun.entry(raw, k)) }
            }
            nextBlock += 1
        }
    }

    /// Calls `body` with the entries of `older` and `newer` merged in UUID order, a UUID in
    /// both folded into one entry (the later add and delete win), as ``UUIDRunSet/merge(_:_:)``.
    private static func walkMerged(_ older: UUIDRun, _ newer: UUIDRun, _ body: (Entry) throws -> Void) throws {
        var a = try BlockCursor(older)
        defer { a.close() }
        var b = try BlockCursor(newer)
        defer { b.close() }
        while true {
            switch (a.current, b.current) {
            case (nil, nil):
                return
            case (let x?, nil):
                try body(x)
                try a.advance()
            case (nil, let y?):
                try body(y)
                try b.advance()
            case (let x?, let y?):
                if x.uuid < y.uuid {
                    try body(x)
                    try a.advance()
                } else if y.uuid < x.uuid {
                    try body(y)
                    try b.advance()
                } else {
                    try body(Entry(uuid: x.uuid, addSeq: max(x.addSeq, y.addSeq), deleteSeq: max(x.deleteSeq, y.deleteSeq)))
                    try a.advance()
                    try b.advance()
                }
            }
        }
    }

    /// Writes the merge of two adjacent runs as one run covering `older.fromSeq...newer.toSeq`
    /// (temporary file and rename, not synced: derived data), streaming: one walk counts the
    /// merged entries to size the block table, a second writes them a block at a time, so
    /// memory stays a few blocks however large the runs are. Throws
    /// ``HealthLogError/Code/corrupt`` when an input block fails its checksum.
    static func writeMerged(_ older: UUIDRun, _ newer: UUIDRun, directory: String) throws -> String {
        var count = 0
        try walkMerged(older, newer) { _ in count += 1 }
        let blocks = (count + blockEntries - 1) / blockEntries
        let path = directory + "/" + fileName(from: older.fromSeq, to: newer.toSeq)
        let temporary = path + DurableFile.temporarySuffix
        let fd = try FileDescriptor.createExclusive(temporary)
        do {
            var table = ByteWriter()
            var body = ByteWriter()
            var offset = headerLength + blocks * 20
            var first: SampleUUID?
            func flushBlock() throws {
                guard let start = first else { return }
                table.append(start.high)
                table.append(start.low)
                table.append(CRC32C.checksum(body.bytes[...]))
                try fd.write(body.bytes, at: offset)
                offset += body.bytes.count
                body.bytes.removeAll(keepingCapacity: true)
                first = nil
            }
            var inBlock = 0
            try walkMerged(older, newer) { entry in
                if first == nil { first = entry.uuid }
                body.append(entry.uuid.high)
                body.append(entry.uuid.low)
                body.append(entry.addSeq)
                body.append(entry.deleteSeq)
                inBlock += 1
                if inBlock == blockEntries {
                    try flushBlock()
                    inBlock = 0
                }
            }
            try flushBlock()
            var header = ByteWriter()
            header.append(bytes: tag)
            header.append(FormatConstants.uuidRunVersion)
            header.append(UInt16(0))
            header.append(older.fromSeq)
            header.append(newer.toSeq)
            header.append(UInt64(count))
            header.append(UInt32(blocks))
            header.append(table.bytes.withUnsafeBytes { CRC32C.checksum($0) })
            header.appendChecksum()
            header.append(UInt32(0))
            try fd.write(header.bytes + table.bytes, at: 0)
            fd.close()
        } catch {
            fd.close()
            unlink(temporary)
            throw error
        }
        try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, path) }
        return path
    }
}
