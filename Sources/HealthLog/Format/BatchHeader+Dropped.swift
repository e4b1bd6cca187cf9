extension BatchHeader {
    /// One event compaction dropped: what the UUID index needs to keep refusing its UUID.
    struct Dropped: Equatable, Sendable {
        /// The dropped event's sequence number.
        let seq: UInt64
        /// Whether it was the delete (else the add).
        let isDelete: Bool
        /// The sample's UUID.
        let uuid: SampleUUID
    }

    /// The events compaction dropped from a batch, in sequence order, kept as the header
    /// stores them (24 bytes an event: the sequence number with its top bit set for a
    /// delete, then the UUID's high and low words, little-endian) and decoded only where
    /// they are read. A reader that loads every header of a compacted store (a replay, an
    /// export) then holds the list's bytes once, not a decoded copy beside them; a header
    /// decoded from a payload shares the payload's storage.
    ///
    /// A snapshot keeps each list's count only (``countOnly()``): readers need no more, and
    /// a compacted store's lists (24 bytes a dropped event) would otherwise be most of their
    /// memory. Those who read the events take the header again with its list
    /// (``LogSnapshot/fullHeader(of:)``); reading or encoding the events of a count-only
    /// list is a programming error, and stops the process.
    struct DroppedList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
        /// The list's bytes, as stored (none when the list is count-only).
        private let stored: ArraySlice<UInt8>
        /// The events a count-only list holds; 0 for a list that keeps them.
        private let countOnlyEvents: Int

        /// The bit of a stored sequence number that marks a delete.
        private static let deleteBit: UInt64 = 1 << 63
        /// The bytes one event takes.
        static let stride = 24

        /// The list of `events`, which must be in ascending sequence order.
        init(_ events: [Dropped]) {
            var w = ByteWriter()
            w.bytes.reserveCapacity(events.count * Self.stride)
            for event in events {
                w.append(event.seq | (event.isDelete ? Self.deleteBit : 0))
                w.append(event.uuid.high)
                w.append(event.uuid.low)
            }
            stored = w.bytes[...]
            countOnlyEvents = 0
        }

        /// A count-only list of `count` events (an empty list for none).
        init(countOnly count: Int) {
            stored = []
            countOnlyEvents = count
        }

        init(arrayLiteral events: Dropped...) { self.init(events) }

        /// The list `bytes` store for batch `first...last`, checked as a header decoder
        /// must: every event in the range and above the one before.
        init(stored bytes: ArraySlice<UInt8>, first: UInt64, last: UInt64) throws {
            precondition(bytes.count % Self.stride == 0)
            // An empty list keeps no slice: a slice, even an empty one, would keep the bytes
            // its header was decoded from (an index's, a sealed copy's) alive.
            stored = bytes.isEmpty ? [] : bytes
            countOnlyEvents = 0
            var previous: UInt64 = 0
            for k in 0..<count {
                let seq = self.seq(at: k)
                guard seq >= first, seq <= last, seq > previous else {
                    throw FormatViolation("batch header lists dropped event \(seq) outside \(first)...\(last) or out of order")
                }
                previous = seq
            }
        }

        var startIndex: Int { 0 }
        var endIndex: Int { isCountOnly ? countOnlyEvents : stored.count / Self.stride }

        /// Whether only the list's count is kept (``countOnly()``).
        var isCountOnly: Bool { countOnlyEvents > 0 }

        /// The same list, its count only: its bytes (and whatever they are a slice of) let go.
        func countOnly() -> DroppedList {
            isEmpty ? self : DroppedList(countOnly: count)
        }

        subscript(position: Int) -> Dropped {
            precondition(position >= 0 && position < endIndex, "dropped event index out of range")
            let word = word(at: position, 0)
            return Dropped(
                seq: word & ~Self.deleteBit, isDelete: word & Self.deleteBit != 0,
                uuid: SampleUUID(high: self.word(at: position, 1), low: self.word(at: position, 2)))
        }

        /// The sequence number of event `k`, without its UUID.
        func seq(at k: Int) -> UInt64 { word(at: k, 0) & ~Self.deleteBit }

        /// Whether the list holds event `seq` (a binary search: the list is in order).
        func contains(seq: UInt64) -> Bool {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if self.seq(at: middle) < seq { low = middle + 1 } else { high = middle }
            }
            return low < count && self.seq(at: low) == seq
        }

        /// Appends the list as stored to `w`.
        func encode(into w: inout ByteWriter) {
            precondition(!isCountOnly, "a count-only dropped list is encoded: take the header with LogSnapshot.fullHeader(of:)")
            w.append(bytes: stored)
        }

        private func word(at k: Int, _ field: Int) -> UInt64 {
            precondition(!isCountOnly, "a count-only dropped list is read: take the header with LogSnapshot.fullHeader(of:)")
            return stored.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: k * Self.stride + field * 8, as: UInt64.self)) }
        }
    }
}
