/// The adds a log deletes, as the deleted-add index should list them, one at a time.
extension DeletedAddIndex {
    /// The sequence numbers of the adds that events `1...last` of a log delete, in order,
    /// each once: those its delete lines delete (read from the log and held, ``liveEntries``)
    /// merged with those `compact` dropped whose delete, dropped with them, is at or before
    /// `last`, read from the batch headers as they are reached rather than gathered (a
    /// compacted store can list millions). A compaction drops a delete with the add it
    /// deletes, so when no dropped delete lies past `last`, every dropped add up to `last` is
    /// one; otherwise the dropped deletes' UUIDs up to `last` are held sorted
    /// (``SortedUUIDs``, 16 bytes each) and each dropped add is looked up in them.
    struct ExpectedAdds {
        /// The adds the delete lines delete.
        private let live: [UInt64]
        private var liveAt = 0
        /// The log, whose headers list the dropped events (read with ``LogSnapshot/fullHeader(of:)``).
        private let snapshot: LogSnapshot
        /// The batches up to `last`.
        private let batches: [BatchRef]
        private let last: UInt64
        /// The dropped deletes' UUIDs, when some dropped delete lies past `last`.
        private let deleted: SortedUUIDs?
        /// Where the walk of the dropped lists stands.
        private var batchAt = 0
        private var dropped: BatchHeader.DroppedList = []
        private var droppedAt = 0
        /// The next dropped add, `nil` once they are all taken.
        private var nextDropped: UInt64?
        /// Whether any add was dropped (the two lists are then merged without repeats).
        private let merges: Bool
        private var previous: UInt64?
        /// How many there are at most.
        let bound: Int

        /// The adds events `1...last` of `snapshot` delete.
        ///
        /// - Throws: ``HealthLogError/Code/corrupt`` when a delete line or a deleted add
        ///   cannot be read.
        init(_ snapshot: LogSnapshot, through last: UInt64) throws {
            batches = try snapshot.allBatches().filter { $0.header.firstSeq <= last }
            self.snapshot = snapshot
            self.last = last
            var deleteCount = 0
            var addCount = 0
            var latestDelete: UInt64 = 0
            for batch in batches {
                for event in try snapshot.fullHeader(of: batch).dropped {
                    if event.isDelete {
                        latestDelete = max(latestDelete, event.seq)
                        if event.seq <= last { deleteCount += 1 }
                    } else if event.seq <= last {
                        addCount += 1
                    }
                }
            }
            if deleteCount > 0, latestDelete > last {
                var deletes: [SampleUUID] = []
                deletes.reserveCapacity(deleteCount)
                for batch in batches {
                    for event in try snapshot.fullHeader(of: batch).dropped where event.isDelete && event.seq <= last { deletes.append(event.uuid) }
                }
                deleted = SortedUUIDs(taking: &deletes)
            } else {
                deleted = nil
            }
            merges = deleteCount > 0 && addCount > 0
            live = try DeletedAddIndex.liveEntries(snapshot, batches, through: last)
            bound = live.count + (merges ? addCount : 0)
            if merges { nextDropped = try nextDroppedAdd() }
        }

        /// The adds the delete lines delete, when no add was dropped (then they are all).
        var liveOnly: [UInt64]? { merges ? nil : live }

        /// The next, or `nil` after the last.
        ///
        /// - Throws: as ``LogSnapshot/fullHeader(of:)``.
        mutating func next() throws -> UInt64? {
            guard merges else {
                guard liveAt < live.count else { return nil }
                liveAt += 1
                return live[liveAt - 1]
            }
            while true {
                let value: UInt64
                if liveAt < live.count, nextDropped.map({ live[liveAt] < $0 }) ?? true {
                    value = live[liveAt]
                    liveAt += 1
                } else if let dropped = nextDropped {
                    value = dropped
                    nextDropped = try nextDroppedAdd()
                } else {
                    return nil
                }
                if value != previous {
                    previous = value
                    return value
                }
            }
        }

        /// The next dropped add whose delete is at or before `last`, from the headers.
        private mutating func nextDroppedAdd() throws -> UInt64? {
            while true {
                while droppedAt < dropped.count {
                    let event = dropped[droppedAt]
                    droppedAt += 1
                    if !event.isDelete, event.seq <= last, deleted?.contains(event.uuid) ?? true { return event.seq }
                }
                guard batchAt < batches.count else { return nil }
                dropped = try snapshot.fullHeader(of: batches[batchAt]).dropped
                droppedAt = 0
                batchAt += 1
            }
        }
    }
}
