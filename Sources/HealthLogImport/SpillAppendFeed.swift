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
        // Sendable by hand: the spill and the member types are used by the reading thread
        // alone while it runs; the calling thread waits in `run` until it is joined.

        /// The spill to read back.
        let spill: EventSpill
        /// The correlation members' types, by UUID.
        let memberTypes: [SampleUUID: String]
        /// The keys of ``memberTypes``: a record's UUID is looked for here first, without
        /// the dictionary's SipHash, since nearly every record is not a member.
        let members: UUIDTable
        /// The events an append holds, at least.
        let eventsPerAppend: Int
        /// The bytes of lines that make an append due, whatever its events.
        let maxBytes: Int
        /// The appends gathered, then the end: to the calling thread.
        let ready = HandoffQueue<Step>(capacity: 2)
        /// The appends made, emptied: back to the reading thread.
        let free = HandoffQueue<GatheredAppend>(capacity: 2)

        /// What the reading thread of `spill` works with.
        init(_ spill: EventSpill, memberTypes: [SampleUUID: String], eventsPerAppend: Int, maxBytes: Int) {
            self.spill = spill
            self.memberTypes = memberTypes
            var members = UUIDTable(capacity: memberTypes.count)
            for uuid in memberTypes.keys { members.insert(uuid) }
            self.members = members
            self.eventsPerAppend = max(1, eventsPerAppend)
            self.maxBytes = maxBytes
        }
    }

    /// Reads `spill` back on a thread of its own and calls `append` here with each gathered
    /// append of `eventsPerAppend` events (or `maxBytes` of lines) in order, then `progress`
    /// with the bytes of spill records read through it (and once more at the end, when
    /// records after the last append were read). `memberTypes` are the types of the
    /// correlation members, by UUID. Returns what the reading found.
    ///
    /// - Throws: what reading the spill throws (after the appends gathered before it were
    ///   made), or whatever `append` throws; the reading thread is stopped and joined first.
    static func run(
        _ spill: EventSpill, memberTypes: [SampleUUID: String], eventsPerAppend: Int, maxBytes: Int,
        append: (GatheredAppend) throws -> Void, progress: (Int) -> Void
    ) throws -> Outcome {
        let reading = Reading(spill, memberTypes: memberTypes, eventsPerAppend: eventsPerAppend, maxBytes: maxBytes)
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
                let outcome = try result.get()
                if outcome.bytesRead > reported { progress(outcome.bytesRead) }
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
        var seenMembers: Set<SampleUUID> = []
        var done = 0
        do {
            try reading.spill.forEach(progress: { done = $0 }) { record in
                if !reading.memberTypes.isEmpty, record.flags.contains(.fromDocument), !record.flags.contains(.correlationMember),
                    reading.members.contains(record.uuid), let type = reading.memberTypes[record.uuid], seenMembers.insert(record.uuid).inserted
                {
                    outcome.membersAlsoTopLevel[type, default: 0] += 1
                }
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
}
