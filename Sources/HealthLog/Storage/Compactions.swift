/// The `compactions` file: every `compact` that changed the log, and the
/// commit point of each.
///
/// Compaction *n* (1-based: its *generation*) rewrote some segments as files of generation
/// *n* (`<base>.<n>.log.lz4`) beside the old ones, then committed by replacing this file
/// with one more entry. So for each base sequence number the segment in use is the one
/// of the highest generation not above ``generation``; a file of a higher generation is
/// an unfinished compaction's (ignored by readers, removed by the next writer) and one of
/// a lower generation is superseded (removed once no reader's snapshot may still use it).
/// A crash at any instant leaves the old set or the new one, never a mix.
///
/// Each entry records the horizon (deletes at or before ``Entry/horizonSeq`` were dropped
/// with their samples), when it ran, how many events it dropped, and, when it rewrote the
/// segment the checkpoint names, the checkpoint's offset before and after: a checkpoint
/// still naming the old offset (the crash came before it was rewritten) is read at the
/// new one (``translate(_:)``).
///
/// Its bytes: a ``SmallFile`` tagged `HLCO`; `Format.md`, "Compaction and the `compactions`
/// file". Written durably, mode 0600. Not derived: a damaged file is damage. A store
/// without it was never compacted.
struct Compactions: Sendable, Equatable {
    /// One compaction.
    struct Entry: Sendable, Equatable {
        /// Deletes at or before this sequence number were dropped, with their samples.
        var horizonSeq: UInt64
        /// When the compaction committed, milliseconds since 1970.
        var createdMillis: Int64
        /// How many events (adds and deletes) it dropped.
        var droppedEvents: UInt64
        /// The checkpoint it found, when it rewrote that checkpoint's segment.
        var checkpointBefore: Checkpoint?
        /// The end offset that checkpoint has in the rewritten segment.
        var checkpointNewOffset: UInt64 = 0
    }

    /// The compactions, oldest first; entry *k* made generation *k + 1*.
    var entries: [Entry] = []

    /// The file's kind: a record whose length its count gives.
    static let file = SmallFile(tag: "HLCO", version: 1, headerLength: nil) { 16 + Int(ByteReaderValue.u32($0, 8)) * 56 }

    /// The newest committed generation (0: never compacted).
    var generation: UInt32 { UInt32(entries.count) }

    /// The segment files in use among `names` (sorted by base, then generation): for each
    /// base, the highest generation not above ``generation``.
    func current(_ names: [SegmentName]) -> [SegmentName] {
        var out: [SegmentName] = []
        for name in names where name.generation <= generation {
            if out.last?.baseSeq == name.baseSeq { out.removeLast() }
            out.append(name)
        }
        return out
    }

    /// The segment files among `names` that are not in use: superseded by a later
    /// generation, or left by a compaction that never committed.
    func unused(_ names: [SegmentName]) -> [SegmentName] {
        let inUse = Set(current(names))
        return names.filter { !inUse.contains($0) }
    }

    /// `checkpoint` as it reads after the compactions: one that names a segment's end as it
    /// was before a compaction rewrote that segment is moved to the new end.
    func translate(_ checkpoint: Checkpoint?) -> Checkpoint? {
        guard var checkpoint else { return nil }
        for entry in entries where entry.checkpointBefore == checkpoint {
            checkpoint.endOffset = entry.checkpointNewOffset
        }
        return checkpoint
    }

    /// The record for a copy of the log with its own checkpoint (`recover` writes one):
    /// the same compactions, so the same anchors expire, without the checkpoint moves.
    var carried: Compactions {
        Compactions(entries: entries.map { Entry(horizonSeq: $0.horizonSeq, createdMillis: $0.createdMillis, droppedEvents: $0.droppedEvents) })
    }

    /// The file's bytes.
    func encoded() -> [UInt8] {
        Self.file.encode { w in
            w.append(UInt32(entries.count))
            for entry in entries {
                w.append(entry.horizonSeq)
                w.append(entry.createdMillis)
                w.append(entry.droppedEvents)
                w.append(entry.checkpointBefore?.seq ?? 0)
                w.append(entry.checkpointBefore?.segmentBase ?? 0)
                w.append(entry.checkpointBefore?.endOffset ?? 0)
                w.append(entry.checkpointBefore == nil ? 0 : entry.checkpointNewOffset)
            }
        }
    }

    /// Decodes the file's bytes; `nil` when they are not a sound compactions file.
    static func decode(_ bytes: [UInt8]) -> Compactions? {
        guard var r = file.open(bytes), let count = try? r.read(UInt32.self) else { return nil }
        var out = Compactions()
        for _ in 0..<count {
            guard let horizon = try? r.read(UInt64.self), let created = try? r.read(Int64.self), let dropped = try? r.read(UInt64.self),
                let seq = try? r.read(UInt64.self), let base = try? r.read(UInt64.self), let old = try? r.read(UInt64.self),
                let new = try? r.read(UInt64.self)
            else { return nil }
            let before = seq == 0 && base == 0 ? nil : Checkpoint(seq: seq, segmentBase: base, endOffset: old)
            out.entries.append(Entry(horizonSeq: horizon, createdMillis: created, droppedEvents: dropped, checkpointBefore: before, checkpointNewOffset: new))
        }
        return out
    }

    /// Reads the compactions of `layout`: none when the file is absent.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the file exists but does not decode.
    static func read(_ layout: StoreLayout) throws -> Compactions {
        guard let bytes = try SmallFile.read(layout.compactions) else { return Compactions() }
        guard let compactions = decode(bytes) else {
            throw HealthLogError(.corrupt, "\(layout.compactions) at byte 0: not a valid compactions file; it records which segment files compaction committed, so the log cannot be read")
        }
        return compactions
    }

    /// Replaces the file of `layout` atomically and durably: the commit point of a compaction.
    func write(_ layout: StoreLayout) throws {
        try SmallFile.write(layout.compactions, encoded(), sync: true)
    }
}
