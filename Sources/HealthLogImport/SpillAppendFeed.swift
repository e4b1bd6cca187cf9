import HealthLog

/// The writing pass of an import on two threads: a reading thread takes the spill back
/// (``EventSpill/forEach(progress:_:)``: each chunk decompressed, its records split) and
/// gathers its records into appends (``GatheredAppend``: the lines copied, the prepared
/// events decoded) while the calling thread appends the one before. Two gathered appends
/// take turns, so memory holds at most two appends' events. The appends hold the events,
/// in the order and with the boundaries, that adding the records one by one to an
/// ``ImportWriter`` gives: a boundary only after a record that ends a top-level element,
/// once the append size (events or bytes) is reached.
enum SpillAppendFeed {
    /// What the reading thread found besides the appends.
    struct Outcome: Sendable {
        /// Correlation members also found at top level (each UUID once), by type: their
        /// top-level copies are not counted again.
        var membersAlsoTopLevel: [String: Int] = [:]
        /// The bytes of spill records read: all of them.
        var bytesRead = 0
    }

    /// What the calling thread takes, in order.
    private enum Step: Sendable {
        /// An append to make.
        case append(GatheredAppend)
        /// The end of the spill: the outcome, or the error that stopped the reading.
        case end(Result<Outcome, any Error>)
    }

    /// What the reading thread works with, handed to it whole.
    private final class Reading: @unchecked Sendable {
        // Sendable by hand: the spill and the members' first share are used by the reading
        // thread alone until it hands on the end; the calling thread reads the share once it
        // has taken the end (the queue's mutex orders the accesses).

        /// The spill to read back.
        let spill: EventSpill
        /// The correlation members' first share, given the top-level UUIDs as they are read;
        /// `nil` without members.
        var members: CorrelationMembers.Pass?
        /// Whether the spill is read again after (for the members' other shares).
        let readsAgain: Bool
        /// The events an append holds, at least.
        let eventsPerAppend: Int
        /// The bytes of lines that make an append due, whatever its events.
        let maxBytes: Int
        /// The appends gathered, then the end: to the calling thread.
        let ready = HandoffQueue<Step>(capacity: 2)
        /// The appends made, emptied: back to the reading thread.
        let free = HandoffQueue<GatheredAppend>(capacity: 2)

        /// What the reading thread of `spill` works with, counting `members` (its first
        /// share) as it reads.
        init(_ spill: EventSpill, members: CorrelationMembers, eventsPerAppend: Int, maxBytes: Int) throws {
            self.spill = spill
            self.members = members.count > 0 ? try members.pass(0) : nil
            readsAgain = members.passes > 1
            self.eventsPerAppend = max(1, eventsPerAppend)
            self.maxBytes = maxBytes
        }
    }

    /// Reads `spill` back on a thread of its own and calls `append` here with each gathered
    /// append of `eventsPerAppend` events (or `maxBytes` of lines) in order, then `progress`
    /// with the bytes of spill records read through it (and once more at the end, when
    /// records after the last append were read). `members` are the correlation members met:
    /// their first share is counted as the spill is read, the others (a diary of millions of
    /// members) each by reading the spill's UUIDs again. Returns what the reading found.
    ///
    /// - Throws: what reading the spill throws (after the appends gathered before it were
    ///   made), or whatever `append` throws; the reading thread is stopped and joined first.
    static func run(
        _ spill: EventSpill, members: CorrelationMembers, eventsPerAppend: Int, maxBytes: Int,
        append: (GatheredAppend) throws -> Void, progress: (Int) -> Void
    ) throws -> Outcome {
        let reading = try Reading(spill, members: members, eventsPerAppend: eventsPerAppend, maxBytes: maxBytes)
        _ = reading.free.push(GatheredAppend())
        let thread = try OSThread.start(for: "the import") { gather(reading) }
        defer {
            reading.ready.cancel()
            reading.free.cancel()
            thread.join()
        }
        var reported = 0
        while let step = reading.ready.pop() {
            switch step {
            case .append(let gathered):
                try append(gathered)
                progress(gathered.spilledBytesDone)
                reported = gathered.spilledBytesDone
                gathered.removeAll()
                guard reading.free.push(gathered) else { break }
            case .end(let result):
                var outcome = try result.get()
                if outcome.bytesRead > reported { progress(outcome.bytesRead) }
                if let first = reading.members {
                    outcome.membersAlsoTopLevel = try members.alsoTopLevel(after: first) { visit in
                        try spill.forEach(progress: { _ in }, keepingChunks: true) { record in
                            if Self.isTopLevel(record) { visit(record.uuid) }
                        }
                    }
                }
                return outcome
            }
        }
        throw HealthLogError(.io, "the import's reading thread stopped")
    }

    /// The reading thread: gathers the spill's records into appends and hands each on when
    /// it is full, then the last and the end. Stops early when a queue is cancelled.
    private static func gather(_ reading: Reading) {
        /// Thrown to stop the reading when the calling thread no longer takes appends.
        struct Cancelled: Error {}
        var current = GatheredAppend()
        var outcome = Outcome()
        var done = 0
        do {
            try reading.spill.forEach(progress: { done = $0 }, keepingChunks: reading.readsAgain) { record in
                if reading.members != nil, isTopLevel(record) { reading.members!.visit(topLevel: record.uuid) }
                if record.flags.contains(.inStoreLive) {
                    current.addPresent(deleted: false)
                } else if record.flags.contains(.inStoreDeleted) {
                    current.addPresent(deleted: true)
                } else {
                    current.add(record.line, prepared: record.prepared, uuid: record.uuid, checkedUnused: record.flags.contains(.checkedUnused))
                }
                guard record.flags.contains(.endsElement), current.isFull(eventsPerAppend: reading.eventsPerAppend, maxBytes: reading.maxBytes) else { return }
                current.spilledBytesDone = done
                guard reading.ready.push(.append(current)), let next = reading.free.pop() else { throw Cancelled() }
                current = next
            }
            if current.events > 0 {
                current.spilledBytesDone = done
                guard reading.ready.push(.append(current)) else { return }
            }
            outcome.bytesRead = done
            _ = reading.ready.push(.end(.success(outcome)))
        } catch is Cancelled {
            return
        } catch {
            _ = reading.ready.push(.end(.failure(error)))
        }
    }

    /// Whether `record` is a top-level element's event of the export document (not a
    /// correlation member, not from a file beside it).
    private static func isTopLevel(_ record: EventSpill.Record) -> Bool {
        record.flags.contains(.fromDocument) && !record.flags.contains(.correlationMember)
    }
}
