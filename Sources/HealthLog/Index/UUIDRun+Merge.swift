#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UUIDRun {
    /// Reads a run's entries in UUID order a page (``UUIDRun/pageEntries``) at a time with
    /// `pread(2)`, checking each block's CRC-32C as its last page is read, so a merge of
    /// many runs holds a page of each, not a block (64 runs' blocks took 8 MB). A block's
    /// first pages are given out before its checksum is checked: a caller that throws away
    /// what it made when the cursor throws (a merge's output, never renamed into place)
    /// uses nothing of a damaged block. The owner calls ``close()``.
    struct BlockCursor {
        /// The run read.
        let run: UUIDRun
        private let fd: FileDescriptor
        /// The entry the next page starts with.
        private var next = 0
        /// The CRC-32C of the block being read, through the pages read so far.
        private var crc: UInt32 = 0
        /// The page read last, as stored in the clear.
        private var bytes: [UInt8] = []
        private var entries: [Entry] = []
        private var index = 0

        /// Opens `run` and reads its first page; throws ``HealthLogError/Code/corrupt``
        /// when the run is a page long and fails its checksum.
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

        /// The bytes of entries it holds (a page's, as stored and decoded).
        var heldBytes: Int { bytes.capacity + entries.capacity * MemoryLayout<Entry>.stride }

        /// Closes the file.
        func close() { fd.close() }

        /// Moves to the next entry, reading the next page when this one is done; throws
        /// ``HealthLogError/Code/corrupt`` when that page ends a block that fails its checksum.
        mutating func advance() throws {
            index += 1
            if index == entries.count { try load() }
        }

        private mutating func load() throws {
            entries.removeAll(keepingCapacity: true)
            index = 0
            guard next < run.count else { return }
            let block = next / UUIDRun.blockEntries
            let blockStart = block * UUIDRun.blockEntries
            let blockEnd = min(run.count, blockStart + UUIDRun.blockEntries)
            let end = min(blockEnd, next + UUIDRun.pageEntries)
            let isRead = try run.readEntries(next..<end, from: fd, into: &bytes)
            if isRead { crc = bytes.withUnsafeBytes { CRC32C.checksum($0, seed: next == blockStart ? 0 : crc) } }
            guard isRead, end < blockEnd || crc == run.blockCRCs[block] else {
                run.isDamaged = true
                throw HealthLogError(.corrupt, "\(run.path) at byte \(run.entryOffset(blockStart)): block \(block) fails its checksum")
            }
            bytes.withUnsafeBytes { raw in
                for k in 0..<(end - next) { entries.append(UUIDRun.entry(raw, k)) }
            }
            next = end
        }
    }

    /// Calls `body` with the entries of `runs` (adjacent runs, oldest first) merged in UUID
    /// order in one pass, a UUID in several folded into one entry (the later add and delete
    /// win). Holds a block of each run. The cursors not at their end sit in a binary heap by
    /// their current UUID, so an entry costs about log₂(runs) comparisons, not a scan of
    /// every run (a merge of 64 runs spent most of its time scanning). Throws when `stop`
    /// says so (asked every ``UUIDRun/pageEntries`` entries).
    private static func walkMerged(_ runs: [UUIDRun], stop: () -> Bool = { false }, _ body: (Entry) throws -> Void) throws {
        var cursors: [BlockCursor] = []
        defer { for cursor in cursors { cursor.close() } }
        for run in runs { cursors.append(try BlockCursor(run)) }
        var heap: [(uuid: SampleUUID, cursor: Int)] = cursors.indices.compactMap { k in cursors[k].current.map { ($0.uuid, k) } }
        /// Moves the heap's element at `at` down until neither child holds a smaller UUID.
        func siftDown(_ heap: inout [(uuid: SampleUUID, cursor: Int)], _ at: Int) {
            var parent = at
            while true {
                var least = parent
                let left = 2 * parent + 1
                if left < heap.count, heap[left].uuid < heap[least].uuid { least = left }
                if left + 1 < heap.count, heap[left + 1].uuid < heap[least].uuid { least = left + 1 }
                guard least != parent else { return }
                heap.swapAt(parent, least)
                parent = least
            }
        }
        for k in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(&heap, k) }
        var walked = 0
        while let top = heap.first {
            walked += 1
            if walked % UUIDRun.pageEntries == 0, stop() { throw HealthLogError(.io, "a merge of UUID runs was stopped") }
            var merged = Entry(uuid: top.uuid, addSeq: 0, deleteSeq: 0)
            repeat {
                let k = heap[0].cursor
                if let entry = cursors[k].current {
                    merged.addSeq = max(merged.addSeq, entry.addSeq)
                    merged.deleteSeq = max(merged.deleteSeq, entry.deleteSeq)
                }
                try cursors[k].advance()
                if let next = cursors[k].current {
                    heap[0].uuid = next.uuid
                } else {
                    heap.swapAt(0, heap.count - 1)
                    heap.removeLast()
                }
                siftDown(&heap, 0)
            } while heap.first?.uuid == merged.uuid
            try body(merged)
        }
    }

    /// Writes the merge of `runs` (at least one; adjacent, oldest first) as one run covering
    /// `runs[0].fromSeq...runs.last.toSeq` (temporary file and rename, not synced: derived
    /// data), streaming: one walk counts the merged entries to size the block table, a
    /// second writes them a block at a time, so memory stays a few blocks per run however
    /// large the runs are. Sealed with `sealing` or in the clear; `visit` is called with
    /// each merged entry as it is written. Throws, writing nothing, once `stop` says so. Throws ``HealthLogError/Code/corrupt`` when an
    /// input block fails its checksum.
    static func writeMerged(_ runs: [UUIDRun], directory: String, sealing: ScratchCipher? = nil, stop: () -> Bool = { false }, visit: (Entry) -> Void = { _ in }) throws -> String {
        precondition(!runs.isEmpty, "a merge has a run")
        var count = 0
        try walkMerged(runs, stop: stop) { _ in count += 1 }
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
            try walkMerged(runs, stop: stop) { entry in
                visit(entry)
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
