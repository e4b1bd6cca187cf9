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
            var bytes: [UInt8] = []
            let block = nextBlock
            let isSound = try run.readEntries(start..<end, from: fd, into: &bytes) && bytes.withUnsafeBytes { CRC32C.checksum($0) } == run.blockCRCs[block]
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

    /// Calls `body` with the entries of `runs` (adjacent runs, oldest first) merged in UUID
    /// order in one pass, a UUID in several folded into one entry (the later add and delete
    /// win). Holds a block of each run.
    private static func walkMerged(_ runs: [UUIDRun], _ body: (Entry) throws -> Void) throws {
        var cursors: [BlockCursor] = []
        defer { for cursor in cursors { cursor.close() } }
        for run in runs { cursors.append(try BlockCursor(run)) }
        while true {
            var least: SampleUUID?
            for cursor in cursors {
                guard let entry = cursor.current else { continue }
                if least.map({ entry.uuid < $0 }) ?? true { least = entry.uuid }
            }
            guard let uuid = least else { return }
            var merged = Entry(uuid: uuid, addSeq: 0, deleteSeq: 0)
            for k in cursors.indices {
                guard let entry = cursors[k].current, entry.uuid == uuid else { continue }
                merged.addSeq = max(merged.addSeq, entry.addSeq)
                merged.deleteSeq = max(merged.deleteSeq, entry.deleteSeq)
                try cursors[k].advance()
            }
            try body(merged)
        }
    }

    /// Writes the merge of `runs` (at least one; adjacent, oldest first) as one run covering
    /// `runs[0].fromSeq...runs.last.toSeq` (temporary file and rename, not synced: derived
    /// data), streaming: one walk counts the merged entries to size the block table, a
    /// second writes them a block at a time, so memory stays a few blocks per run however
    /// large the runs are. Sealed with `sealing` or in the clear. Throws
    /// ``HealthLogError/Code/corrupt`` when an input block fails its checksum.
    static func writeMerged(_ runs: [UUIDRun], directory: String, sealing: ScratchCipher? = nil) throws -> String {
        precondition(!runs.isEmpty, "a merge has a run")
        var count = 0
        try walkMerged(runs) { _ in count += 1 }
        let blocks = (count + blockEntries - 1) / blockEntries
        let from = runs[0].fromSeq
        let to = runs[runs.count - 1].toSeq
        let path = directory + "/" + fileName(from: from, to: to)
        try DurableFile.replace(path, sync: false) { fd in
            var table = ByteWriter()
            var block: [Entry] = []
            block.reserveCapacity(blockEntries)
            var body: [UInt8] = []
            var offset = headerLength + storedTableLength(blocks: blocks, sealed: sealing != nil)
            var written = 0
            func flushBlock() throws {
                guard let first = block.first else { return }
                body.removeAll(keepingCapacity: true)
                encode(block[...], to: &body)
                table.append(first.uuid.high)
                table.append(first.uuid.low)
                table.append(body.withUnsafeBytes { CRC32C.checksum($0) })
                let stored = sealing.map { sealedPages(body, first: written, from: from, to: to, sealing: $0) } ?? body
                try fd.write(stored, at: offset)
                offset += stored.count
                written += block.count
                block.removeAll(keepingCapacity: true)
            }
            try walkMerged(runs) { entry in
                block.append(entry)
                if block.count == blockEntries { try flushBlock() }
            }
            try flushBlock()
            let stored = storedTable(table.bytes, from: from, to: to, count: count, sealing: sealing)
            try fd.write(header(from: from, to: to, count: count, table: stored, sealed: sealing != nil) + stored, at: 0)
        }
        return path
    }
}
