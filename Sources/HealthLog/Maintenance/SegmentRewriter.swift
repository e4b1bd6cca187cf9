#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one segment again without the events a compaction drops, as a new file of the
/// compaction's generation beside the old one (see ``Compactor``); in an encrypted store
/// every batch is sealed again for its new place, under the current key epoch. The old
/// file is only read.
struct SegmentRewriter {
    /// The store.
    let layout: StoreLayout
    /// The writer's snapshot the segment is read from.
    let snapshot: LogSnapshot
    /// The generation of the new file.
    let generation: UInt32
    /// The test faults (segment writes go through it).
    let faults: FaultCounter

    /// What a rewrite produced.
    struct Rewritten {
        /// The new file's size.
        var size: Int
        /// Each batch's end offset in the old file, mapped to its end in the new one.
        var endOffsets: [Int: Int]
    }

    /// Rewrites segment `index` of the snapshot without the events of `dropped`, fdatasyncs
    /// it and writes its index; returns the new size and batch ends. A leftover file of
    /// the same name (an unfinished compaction's) is replaced. `batchStarted` is called
    /// before each batch.
    func rewrite(segment index: Int, dropping dropped: DroppedEvents, batchStarted: () -> Void) throws -> Rewritten {
        let old = snapshot.segments[index]
        let name = SegmentName(baseSeq: old.name.baseSeq, generation: generation)
        let path = layout.segment(baseSeq: name.baseSeq, generation: name.generation)
        unlink(path)
        unlink(SegmentIndex.path(layout, name))
        let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL)
        defer { fd.close() }
        try fd.setMode(0o600)
        let header = SegmentHeader(storeID: snapshot.meta.storeID, baseSeq: name.baseSeq, generation: generation, createdMillis: Clock.nowMillis())
        var offset = 0
        for bytes in [LZ4Frame.emptyFrame, header.encoded()] {
            try faults.write(bytes, to: fd, at: offset)
            offset += bytes.count
        }
        var refs: [BatchRef] = []
        var endOffsets: [Int: Int] = [:]
        var buffer: [UInt8] = []
        var lines = BatchLines()
        for batch in try snapshot.batches(inSegment: index) {
            batchStarted()
            let (plainHeader, frames) = try plain(batch, dropping: dropped, buffer: &buffer, lines: &lines)
            var (newHeader, encoded) = (plainHeader, Self.batchBytes(plainHeader, frames))
            if let cipher = snapshot.cipher {
                (newHeader, encoded) = plainHeader.sealed(encoded, at: BatchPlace(cipher: cipher, segmentBase: name.baseSeq, generation: generation, offset: offset))
            }
            try faults.write(encoded, to: fd, at: offset)
            let payloadLength = Int(ByteReaderValue.u32(encoded, 4))
            // No payload kept and the dropped list as its count: the index written below reads
            // the payload back from the new segment, so the rewritten batches' lists are not held.
            newHeader.dropped = newHeader.dropped.countOnly()
            let ref = BatchRef(segment: index, offset: offset, payloadLength: payloadLength, header: newHeader)
            refs.append(ref)
            endOffsets[batch.end] = ref.end
            offset = ref.end
        }
        try faults.syncData(fd)
        try SegmentIndex.write(layout, name: name, batches: refs, cipher: snapshot.cipher)
        return Rewritten(size: offset, endOffsets: endOffsets)
    }

    /// A batch's bytes: `header` encoded, then `frames` in order, each copied whole (a
    /// `joined()` copies them a byte at a time: a sixth of a compaction's time).
    static func batchBytes(_ header: BatchHeader, _ frames: [[UInt8]]) -> [UInt8] {
        var bytes = header.encoded()
        bytes.reserveCapacity(frames.reduce(bytes.count) { $0 + $1.count })
        for frame in frames { bytes.append(contentsOf: frame) }
        return bytes
    }

    /// The plaintext header and LZ4 frames of `batch` without the dropped events: each
    /// group holding one recompressed without it (or left out when nothing of it remains),
    /// the others as stored (opened, in an encrypted store, to be sealed again at their new
    /// place), and the dropped events, with the UUIDs their lines give, added to the
    /// header's list. Batches are asked for in log order (``DroppedEvents/within(_:)``).
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a frame is damaged, or the batch
    ///   does not hold an event the plan drops from it.
    func plain(_ batch: BatchRef, dropping dropped: DroppedEvents, buffer: inout [UInt8], lines: inout BatchLines) throws -> (BatchHeader, [[UInt8]]) {
        let file = snapshot.segments[batch.segment]
        var header = try snapshot.fullHeader(of: batch)
        let mine = try dropped.within(header.firstSeq...header.lastSeq)
        // Each dropped number, and whether it is the delete.
        let mineKinds = Dictionary(mine.map { ($0.seq, $0.isDelete) }, uniquingKeysWith: { first, _ in first })
        var removed: [BatchHeader.Dropped] = []
        var frames: [[UInt8]] = []
        var groups: [BatchHeader.Group] = []
        for (g, group) in header.groups.enumerated() {
            let touches = !mine.isEmpty && mine.contains { $0.isDelete == group.isDelete && $0.seq >= group.firstSeq && $0.seq <= group.lastSeq }
            if !touches {
                try file.read(into: &buffer, at: batch.groupOffsets[g], count: Int(group.frameLength))
                guard CRC32C.checksum(buffer[...]) == group.frameCRC else {
                    throw HealthLogError(.corrupt, "\(file.location(batch.groupOffsets[g])): frame checksum mismatch (\(group.type) events \(group.firstSeq)...\(group.lastSeq))")
                }
                let frame = try buffer.withUnsafeMutableBytes { Array(try file.frame($0, group: g, of: batch, cipher: snapshot.cipher)) }
                var entry = group
                entry.frameLength = UInt32(frame.count)
                entry.frameCRC = CRC32C.checksum(frame[...])
                frames.append(frame)
                groups.append(entry)
                continue
            }
            try lines.load(snapshot, batch, groups: [g])
            var kept: [UInt8] = []
            var first: UInt64 = 0
            var last: UInt64 = 0
            var count: UInt32 = 0
            let unreadable: UInt64? = lines.withBytes { raw in
                for line in lines.lines {
                    // An event of the other kind under a dropped number is kept, and the
                    // check below reports the one missing.
                    guard mineKinds[line.seq] == line.isDelete else {
                        kept.append(contentsOf: raw[line.start..<line.end])
                        if count == 0 { first = line.seq }
                        last = line.seq
                        count += 1
                        continue
                    }
                    guard let uuid = BatchLines.uuid(of: line, in: raw) else { return line.seq }
                    removed.append(BatchHeader.Dropped(seq: line.seq, isDelete: line.isDelete, uuid: uuid))
                }
                return nil
            }
            if let unreadable { throw HealthLogError(.corrupt, "\(file.location(batch.groupOffsets[g])): event \(unreadable) has no readable UUID") }
            guard count > 0 else { continue }
            let frame = try LZ4Frame.compress(kept)
            var entry = group
            entry.count = count
            entry.firstSeq = first
            entry.lastSeq = last
            entry.frameLength = UInt32(frame.count)
            entry.rawLength = UInt32(kept.count)
            entry.frameCRC = CRC32C.checksum(frame[...])
            frames.append(frame)
            groups.append(entry)
        }
        header.groups = groups
        header.flags &= ~FormatConstants.flagSealed
        guard !mine.isEmpty else { return (header, frames) }
        // Each event the plan drops was found in the group of its kind that spans it.
        if removed.count != mine.count, let missing = mine.first(where: { event in !removed.contains { $0.seq == event.seq } }) {
            throw HealthLogError(.corrupt, "\(file.location(batch.offset)): the batch holds no \(missing.isDelete ? "delete" : "add") numbered \(missing.seq), which the compaction drops")
        }
        header.dropped = BatchHeader.DroppedList((Array(header.dropped) + removed).sorted { $0.seq < $1.seq })
        if groups.contains(where: \.isDelete) {
            header.flags |= FormatConstants.flagHasDeletes
        } else {
            header.flags &= ~FormatConstants.flagHasDeletes
        }
        return (header, frames)
    }
}
