/// The samples of a cumulative merge (``CumulativeMerge/Piece``), handed back by start
/// then order in bounded memory: up to ``memoryPieces`` are held; each time that many have
/// come they are sorted and written as a run to a scratch file (``ScratchFiles``, unlinked
/// at once, so nothing outlives the process), and the runs are merged ``fanIn`` at a time
/// (in passes through a new file while there are more) as they are read back. Fewer
/// samples than ``memoryPieces`` never touch a file.
///
/// A run is a sequence of 40-byte records (little-endian): start and end as microseconds
/// i64, the value as an f64, the order i64, the source and clock i32s; it is written and
/// read in blocks of ``blockRecords`` records (its last block may hold fewer). For an
/// encrypted store each block is sealed (``ScratchCipher``, kind
/// ``ScratchCipher/Kind/mergeRun``), its place the file's pass and run numbers, the
/// block's index in its run, and its record count.
final class PieceRuns {
    /// Bytes per record.
    static let recordLength = 40
    /// Records per block.
    static let blockRecords = 1024

    /// How many pieces are held before they are written as a run.
    let memoryPieces: Int
    /// How many runs are merged at once.
    let fanIn: Int
    /// The cipher sealing the blocks; `nil`: records in the clear.
    private let sealing: ScratchCipher?
    /// The pieces not written yet.
    private var buffer: [CumulativeMerge.Piece] = []
    /// The file of ``runs``, made with the first run.
    private(set) var file: FileDescriptor?
    /// The runs written to ``file``.
    private var runs: [StoredRun] = []
    /// How many merge passes made a file before ``file`` (part of a sealed block's place).
    private var pass = 0

    /// No pieces yet; runs of `memoryPieces`, merged `fanIn` at a time, sealed with
    /// `sealing` (an encrypted store's) or in the clear.
    init(memoryPieces: Int = 1 << 16, fanIn: Int = 64, sealing: ScratchCipher? = nil) {
        precondition(memoryPieces >= 1 && fanIn >= 2, "a run holds a piece and a merge takes two runs")
        self.memoryPieces = memoryPieces
        self.fanIn = fanIn
        self.sealing = sealing
    }

    /// Closes the scratch file (which is gone once closed).
    deinit { file?.close() }

    /// Takes `piece`, writing the held pieces as a run when there are ``memoryPieces``.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the scratch file cannot be made or written.
    func append(_ piece: CumulativeMerge.Piece) throws {
        buffer.append(piece)
        if buffer.count >= memoryPieces { try spill() }
    }

    /// Calls `body` with every piece, by start then order.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the scratch file cannot be written or read;
    ///   ``HealthLogError/Code/corrupt`` when a run comes back short or a sealed block does
    ///   not open.
    func forEach(_ body: (CumulativeMerge.Piece) throws -> Void) throws {
        guard file != nil else {
            buffer.sort { $0.precedes($1) }
            for piece in buffer { try body(piece) }
            return
        }
        if !buffer.isEmpty { try spill() }
        buffer = []
        while runs.count > fanIn {
            let target = try Self.makeFile()
            var merged: [StoredRun] = []
            var writer = RunWriter(file: target, sealing: sealing, pass: pass + 1)
            for first in stride(from: 0, to: runs.count, by: fanIn) {
                writer.begin(run: merged.count)
                try merge(runs[first..<min(runs.count, first + fanIn)], first: first) { try writer.append($0) }
                merged.append(try writer.end())
            }
            file?.close()
            file = target
            runs = merged
            pass += 1
        }
        try merge(runs[...], first: 0, body)
    }

    /// Sorts the held pieces and writes them as a run.
    private func spill() throws {
        let target = try file ?? Self.makeFile()
        file = target
        buffer.sort { $0.precedes($1) }
        var writer = RunWriter(file: target, sealing: sealing, pass: pass, at: runs.last.map { $0.offset + Self.storedLength($0.count, sealed: sealing != nil) } ?? 0)
        writer.begin(run: runs.count)
        for piece in buffer { try writer.append(piece) }
        runs.append(try writer.end())
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the pieces of `group` (the runs from number `first` on), by start
    /// then order.
    private func merge(_ group: ArraySlice<StoredRun>, first: Int, _ body: (CumulativeMerge.Piece) throws -> Void) throws {
        guard let file else { return }
        var readers = group.enumerated().map { RunReader(file: file, sealing: sealing, pass: pass, number: first + $0.offset, run: $0.element) }
        var heads = MinHeap<(piece: CumulativeMerge.Piece, reader: Int)> { $0.piece.precedes($1.piece) }
        for k in readers.indices {
            if let piece = try readers[k].next() { heads.push((piece, k)) }
        }
        while let head = heads.pop() {
            try body(head.piece)
            if let piece = try readers[head.reader].next() { heads.push((piece, head.reader)) }
        }
    }

    /// The bytes a run of `count` records takes in the file.
    fileprivate static func storedLength(_ count: Int, sealed: Bool) -> Int {
        count * recordLength + (sealed ? (count + blockRecords - 1) / blockRecords * ScratchCipher.overhead : 0)
    }

    /// A sealed block's place: the pass and run numbers, the block's index, its record count.
    fileprivate static func place(pass: Int, run: Int, block: Int, count: Int) -> (UInt64, UInt64, UInt64) {
        (UInt64(pass) << 32 | UInt64(run), UInt64(block), UInt64(count))
    }

    /// A new scratch file, already unlinked.
    private static func makeFile() throws -> FileDescriptor {
        try ScratchFiles.makeUnlinkedFile(prefix: "healthlog-merge-")
    }
}

/// One run in a scratch file: where it starts and how many records it holds.
private struct StoredRun {
    var offset: Int
    var count: Int
}

/// Writes one run after another to a scratch file, a block at a time.
private struct RunWriter {
    let file: FileDescriptor
    let sealing: ScratchCipher?
    let pass: Int
    /// Where the next block goes.
    private var at: Int
    /// Where the current run starts, its number and the records written to it.
    private var start = 0
    private var number = 0
    private var count = 0
    /// The current block's records, the first `filled` bytes of it.
    private var block = [UInt8](repeating: 0, count: PieceRuns.blockRecords * PieceRuns.recordLength)
    private var filled = 0

    init(file: FileDescriptor, sealing: ScratchCipher?, pass: Int, at: Int = 0) {
        self.file = file
        self.sealing = sealing
        self.pass = pass
        self.at = at
    }

    /// Starts run `number` where the last one ended.
    mutating func begin(run number: Int) {
        self.number = number
        start = at
        count = 0
    }

    /// Adds `piece` to the run.
    mutating func append(_ piece: CumulativeMerge.Piece) throws {
        let r = filled
        block.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: piece.start.littleEndian, toByteOffset: r, as: Int64.self)
            raw.storeBytes(of: piece.end.littleEndian, toByteOffset: r + 8, as: Int64.self)
            raw.storeBytes(of: piece.value.bitPattern.littleEndian, toByteOffset: r + 16, as: UInt64.self)
            raw.storeBytes(of: Int64(piece.order).littleEndian, toByteOffset: r + 24, as: Int64.self)
            raw.storeBytes(of: piece.source.littleEndian, toByteOffset: r + 32, as: Int32.self)
            raw.storeBytes(of: piece.clock.littleEndian, toByteOffset: r + 36, as: Int32.self)
        }
        filled += PieceRuns.recordLength
        count += 1
        if filled == block.count { try flush() }
    }

    /// Ends the run; returns where it is.
    mutating func end() throws -> StoredRun {
        try flush()
        return StoredRun(offset: start, count: count)
    }

    /// Writes the current block.
    private mutating func flush() throws {
        guard filled > 0 else { return }
        let records = filled / PieceRuns.recordLength
        try block.withUnsafeBytes { raw in
            let plain = UnsafeRawBufferPointer(rebasing: raw[..<filled])
            if let sealing {
                let index = (count - records) / PieceRuns.blockRecords
                let sealed = sealing.seal(plain, .mergeRun, place: PieceRuns.place(pass: pass, run: number, block: index, count: records))
                try file.write(sealed, at: at)
                at += sealed.count
            } else {
                try file.write(plain, at: at)
                at += filled
            }
        }
        filled = 0
    }
}

/// Reads one run back a block at a time.
private struct RunReader {
    let file: FileDescriptor
    let sealing: ScratchCipher?
    let pass: Int
    /// The run's number in its file.
    let number: Int
    /// Where the run is and how many records it holds.
    let offset: Int
    let count: Int
    /// The records read so far, and the current block's pieces and place in them.
    private var read = 0
    private var pieces: [CumulativeMerge.Piece] = []
    private var position = 0

    init(file: FileDescriptor, sealing: ScratchCipher?, pass: Int, number: Int, run: StoredRun) {
        self.file = file
        self.sealing = sealing
        self.pass = pass
        self.number = number
        offset = run.offset
        count = run.count
    }

    /// The run's next piece, `nil` after its last.
    mutating func next() throws -> CumulativeMerge.Piece? {
        if position == pieces.count {
            guard read < count else { return nil }
            try load()
        }
        defer { position += 1 }
        return pieces[position]
    }

    /// Reads the block after the last one read.
    private mutating func load() throws {
        let index = read / PieceRuns.blockRecords
        let records = min(PieceRuns.blockRecords, count - read)
        let plainLength = records * PieceRuns.recordLength
        let at = offset + PieceRuns.storedLength(read, sealed: sealing != nil)
        let stored = try file.read(at: at, count: plainLength + (sealing == nil ? 0 : ScratchCipher.overhead))
        var plain = stored
        if let sealing {
            plain = [UInt8](repeating: 0, count: plainLength)
            let opened = stored.count == plainLength + ScratchCipher.overhead && stored.withUnsafeBytes { sealed in
                plain.withUnsafeMutableBytes { sealing.open(sealed, .mergeRun, place: PieceRuns.place(pass: pass, run: number, block: index, count: records), into: $0) }
            }
            guard opened else { throw HealthLogError(.corrupt, "\(file.path) at byte \(at): a sealed block of the merge's samples does not open (changed or cut short)") }
        } else if stored.count != plainLength {
            throw HealthLogError(.corrupt, "\(file.path) at byte \(at): the merge's samples end early")
        }
        pieces.removeAll(keepingCapacity: true)
        plain.withUnsafeBytes { raw in
            func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T { T(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: T.self)) }
            for k in 0..<records {
                let r = k * PieceRuns.recordLength
                pieces.append(
                    CumulativeMerge.Piece(
                        start: load(r, Int64.self), end: load(r + 8, Int64.self), value: Double(bitPattern: load(r + 16, UInt64.self)), order: Int(load(r + 24, Int64.self)),
                        source: load(r + 32, Int32.self), clock: load(r + 36, Int32.self)))
            }
        }
        read += records
        position = 0
    }
}
