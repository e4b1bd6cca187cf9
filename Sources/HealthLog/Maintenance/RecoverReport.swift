/// What `recover` salvaged from a damaged store, and what it could not read.
public struct RecoverReport: Sendable, Equatable {
    /// A byte range of a segment file that could not be read.
    public struct Unreadable: Sendable, Equatable {
        /// The file, relative to the store (`segments/…`).
        public var file: String
        /// Its first byte.
        public var offset: Int
        /// How many bytes.
        public var length: Int
        /// What was wrong at its start.
        public var reason: String
        /// The sequence numbers of the batch there, when its header could still be read.
        public var seqs: ClosedRange<UInt64>?
    }

    /// Events copied into the new store.
    public var events: UInt64 = 0
    /// The new store's head sequence number: the last recovered event's.
    public var headSeq: UInt64 = 0
    /// Acknowledged sequence numbers no readable batch holds, in order. Each range is a gap
    /// the new store's timelines record, so its continuity checks accept it.
    public var lost: [ClosedRange<UInt64>] = []
    /// Sequence numbers an earlier restore discarded that the damaged store's `timelines`
    /// does not record (it is unreadable): jumps between two batches stored one right after
    /// the other, so no event was lost there. The new store's timelines record them.
    public var discarded: [ClosedRange<UInt64>] = []
    /// The byte ranges that could not be read, in file order.
    public var unreadable: [Unreadable] = []
    /// Sequence numbers of readable batches left out because the append they belong to was
    /// never acknowledged (a torn tail, which any writer would cut too).
    public var tornTail: ClosedRange<UInt64>?
    /// Readable batches left out because an earlier one holds the same numbers.
    public var duplicates = 0
    /// Remarks: where the store's identity came from, files that could not be read.
    public var notes: [String] = []

    /// How many sequence numbers are lost.
    public var lostEvents: UInt64 { lost.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) } }
    /// Whether every acknowledged event was recovered.
    public var isComplete: Bool { lost.isEmpty }
}
