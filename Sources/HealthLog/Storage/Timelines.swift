/// The `timelines` file: where the store's history was cut by a restore.
///
/// A store without the file is one timeline whose sequence numbers run 1, 2, 3, … with no
/// gap. Each restore records a timeline start: the restored backup ended at ``Start/keptSeq``
/// (everything after it that the replaced store or the backup's source had issued is
/// discarded history) and the new timeline's first event gets ``Start/firstSeq``, above
/// every number issued before. The log then jumps from `keptSeq` to `firstSeq`, and that is
/// the only kind of gap any continuity check accepts: one a start records, exactly.
///
/// Its bytes: a ``SmallFile`` tagged `HLTL`; `Format.md`, "The `timelines` file and the gap
/// rule". Starts are in order, each `keptSeq < firstSeq`, and each `firstSeq` at most the
/// next start's `keptSeq`. Written durably, mode 0600. Not derived: a damaged file is damage.
struct Timelines: Sendable, Equatable {
    /// One timeline start.
    struct Start: Sendable, Equatable {
        /// The timeline's identity (16 random bytes).
        var id: StoreID
        /// The first sequence number of the new timeline.
        var firstSeq: UInt64
        /// The last sequence number kept from before (the restored backup's head).
        var keptSeq: UInt64
        /// When the restore happened, milliseconds since 1970.
        var createdMillis: Int64

        /// The discarded sequence numbers, `keptSeq + 1 … firstSeq − 1` (maybe empty).
        var discarded: ClosedRange<UInt64>? { firstSeq > keptSeq + 1 ? (keptSeq + 1)...(firstSeq - 1) : nil }
    }

    /// The starts, oldest first; empty for a store that was never restored.
    var starts: [Start] = []

    /// The file's kind: a record whose length its count gives.
    static let file = SmallFile(tag: "HLTL", version: 1, headerLength: nil) { 16 + Int(ByteReaderValue.u32($0, 8)) * 40 }

    /// Whether a batch or segment starting at `first` may follow one ending at `last`: the
    /// next number, or the jump a timeline start records from exactly `last`.
    func continues(_ first: UInt64, after last: UInt64) -> Bool {
        first == last &+ 1 || starts.contains { $0.keptSeq == last && $0.firstSeq == first }
    }

    /// The start whose discarded history holds `seq`, if any.
    func discarding(_ seq: UInt64) -> Start? {
        starts.first { $0.discarded?.contains(seq) == true }
    }

    /// How many sequence numbers up to `head` no event holds (the jumps the log has passed).
    func discardedCount(through head: UInt64) -> UInt64 {
        starts.reduce(0) { sum, start in
            guard start.firstSeq <= head, let range = start.discarded else { return sum }
            return sum + UInt64(range.count)
        }
    }

    /// The number the next event gets when the log's head is `head`: past the head, and past
    /// every number issued before the newest timeline even when it holds no event yet.
    func nextSeq(head: UInt64) -> UInt64 {
        max(head, (starts.last?.firstSeq ?? 1) - 1) + 1
    }

    /// The file's bytes.
    func encoded() -> [UInt8] {
        Self.file.encode { w in
            w.append(UInt32(starts.count))
            for start in starts {
                w.append(bytes: start.id.bytes)
                w.append(start.firstSeq)
                w.append(start.keptSeq)
                w.append(start.createdMillis)
            }
        }
    }

    /// Decodes the file's bytes; `nil` when they are not a sound timelines file.
    static func decode(_ bytes: [UInt8]) -> Timelines? {
        guard var r = file.open(bytes), let count = try? r.read(UInt32.self) else { return nil }
        var out = Timelines()
        for _ in 0..<count {
            guard let id = try? r.read(count: 16), let first = try? r.read(UInt64.self), let kept = try? r.read(UInt64.self),
                let created = try? r.read(Int64.self), kept < first, out.starts.last.map({ $0.firstSeq <= kept }) ?? true
            else { return nil }
            out.starts.append(Start(id: StoreID(bytes: Array(id)), firstSeq: first, keptSeq: kept, createdMillis: created))
        }
        return out
    }

    /// Reads the timelines of `layout`: none when the file is absent (one timeline).
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the file exists but does not decode.
    static func read(_ layout: StoreLayout) throws -> Timelines {
        guard let bytes = try SmallFile.read(layout.timelines) else { return Timelines() }
        guard let timelines = decode(bytes) else {
            throw HealthLogError(.corrupt, "\(layout.timelines) at byte 0: not a valid timelines file; it records where restores cut the log, so the log's sequence gaps cannot be checked")
        }
        return timelines
    }

    /// Replaces the file of `layout` atomically and durably.
    func write(_ layout: StoreLayout) throws {
        try SmallFile.write(layout.timelines, encoded(), sync: true)
    }
}
