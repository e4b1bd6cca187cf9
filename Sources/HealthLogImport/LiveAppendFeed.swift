import HealthLog

/// The writing of an import into a new store (``ImportStaging``) while the export is still
/// being read: the calling thread gathers each event into the next append
/// (``GatheredAppend``: the line copied, its preparation decoded) as it is mapped, and a
/// thread of its own appends each full one, so the appends run beside the parsing and
/// mapping instead of after them. Two gathered appends take turns, as in
/// ``SpillAppendFeed``, and the appends hold the events, in the order and with the
/// boundaries, that the spill's reading gives: a boundary only after an event that ends a
/// top-level element, once the append size (events or bytes) is reached.
final class LiveAppendFeed {
    /// What the appending thread takes, in order.
    private enum Step: Sendable {
        /// An append to make.
        case append(GatheredAppend)
        /// No more appends.
        case end
    }

    /// What the appending thread works with: handed to it whole, given back when it is joined.
    private final class Appending: @unchecked Sendable {
        // Sendable by hand: the writer and the failure are the appending thread's while it
        // runs; the calling thread reads them only after pushes fail (the queues' mutex
        // orders the accesses) or after joining it.

        /// The appends' writer.
        var writer: ImportWriter
        /// The error that stopped the appends.
        var failure: (any Error)?
        /// The appends gathered, then the end.
        let ready = HandoffQueue<Step>(capacity: 1)
        /// The appends made, emptied: back to the calling thread.
        let free = HandoffQueue<GatheredAppend>(capacity: 2)

        /// What the thread appending with `writer` works with.
        init(_ writer: ImportWriter) {
            self.writer = writer
        }
    }

    /// The writer and the queues, shared with the appending thread.
    private let appending: Appending
    /// The appending thread, until it is joined.
    private var thread: OSThread?
    /// The append being gathered.
    private var current = GatheredAppend()
    /// The events an append holds, at least.
    private let eventsPerAppend: Int
    /// The bytes of lines that make an append due, whatever its events.
    private let maxBytes: Int
    /// The UUIDs of the document's top-level events (not correlation members), in order,
    /// as records without lines: those also found as a correlation's members are counted
    /// once at the end. A spill, so memory holds a chunk of them whatever the export's size.
    private let topLevel: EventSpill

    /// A feed appending with `writer` in appends of `eventsPerAppend` events (or `maxBytes`
    /// of lines), its appending thread started; the top-level UUIDs it keeps until the end
    /// go, past a chunk, to a file beside `storeDirectory` (the new store is plaintext).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the thread cannot be started.
    init(writer: ImportWriter, eventsPerAppend: Int, maxBytes: Int, storeDirectory: String) throws {
        topLevel = EventSpill(near: storeDirectory, sealing: nil)
        appending = Appending(writer)
        self.eventsPerAppend = max(1, eventsPerAppend)
        self.maxBytes = maxBytes
        _ = appending.free.push(GatheredAppend())
        let appending = appending
        thread = try OSThread.start(for: "the import") { Self.run(appending) }
    }

    /// Stops and joins the appending thread, if it still runs.
    deinit {
        stop()
    }

    /// Adds an event, as ``EventSpill/add(_:_:)`` would keep it, to the next append, and
    /// hands that append on when it is full after an event that ends an element.
    ///
    /// - Throws: the error that stopped the appends; ``HealthLogError/Code/io`` when the
    ///   top-level UUIDs' file cannot be written.
    func add(_ event: ExportMapper.Event, _ flags: EventSpill.Flags) throws {
        if flags.contains(.fromDocument), !event.isCorrelationMember {
            try topLevel.add(event.uuid, .fromDocument)
        }
        switch event.inStore {
        case .live?: current.addPresent(deleted: false)
        case .deleted?: current.addPresent(deleted: true)
        case nil:
            event.line.withUnsafeBytes { line in
                if let prepared = event.prepared {
                    prepared.withUnsafeBytes { current.add(line, prepared: $0, uuid: event.uuid, checkedUnused: event.checkedUnused) }
                } else {
                    current.add(line, prepared: nil, uuid: event.uuid, checkedUnused: event.checkedUnused)
                }
            }
        }
        guard flags.contains(.endsElement), current.isFull(eventsPerAppend: eventsPerAppend, maxBytes: maxBytes) else { return }
        guard appending.ready.push(.append(current)), let next = appending.free.pop() else { throw stopped() }
        current = next
    }

    /// Appends what is gathered, waits for every append to be made and returns the writer
    /// and, by type, the correlation members (`members`) also found at top level, each UUID
    /// once.
    ///
    /// - Throws: the error that stopped the appends; ``HealthLogError/Code/io`` when the
    ///   top-level UUIDs' file or the members' cannot be read.
    func finish(members: CorrelationMembers) throws -> (writer: ImportWriter, membersAlsoTopLevel: [String: Int]) {
        if current.events > 0 {
            guard appending.ready.push(.append(current)) else { throw stopped() }
            current = GatheredAppend()
        }
        guard appending.ready.push(.end) else { throw stopped() }
        thread?.join()
        thread = nil
        if let failure = appending.failure { throw failure }
        let counts = try members.alsoTopLevel { visit in
            try topLevel.forEach(progress: { _ in }, keepingChunks: true) { visit($0.uuid) }
        }
        return (appending.writer, counts)
    }

    /// Stops the appending thread (after the append it is making) and joins it.
    func stop() {
        appending.ready.cancel()
        appending.free.cancel()
        thread?.join()
        thread = nil
    }

    /// The error that stopped the appends, once the thread is joined.
    private func stopped() -> any Error {
        stop()
        return appending.failure ?? HealthLogError(.io, "the import's appending thread stopped")
    }

    /// The appending thread: makes each append it is given, in order, and gives it back
    /// emptied, until the end; on an error keeps it and stops the queues.
    private static func run(_ appending: Appending) {
        while case .append(let gathered)? = appending.ready.pop() {
            do {
                try appending.writer.append(gathered)
            } catch {
                appending.failure = error
                appending.ready.cancel()
                appending.free.cancel()
                return
            }
            gathered.removeAll()
            guard appending.free.push(gathered) else { return }
        }
    }
}
