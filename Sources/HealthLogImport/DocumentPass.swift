import HealthLog

/// The one pass over an export document, on three threads besides the calling one, so
/// both cores work: a scanner thread parses the document (``ExportScanner``) into numbered
/// batches of top-level elements, kept as parsed (``ParsedElements``); two mapping threads
/// each take the next batch waiting, make its elements (``ElementMaker``) and map them; the
/// calling thread takes the batches' results in document order. So the parsing thread
/// does no more than parse, and no mapping thread waits for the other while a batch waits.
/// Mapping is pure (the same element always maps to the same events) once the mapper knows
/// the export's date, which each batch carries as of its first element, so the events,
/// their order and what could not be mapped are those of a single mapper reading the
/// document front to back.
enum DocumentPass {
    /// What the scanner found in the whole document.
    struct Summary: Sendable {
        /// The document read: the file, or the zip and its entry.
        var name: String
        /// Whether the input is a zip.
        var isZip: Bool
        /// Every element by name, at every depth.
        var elementCounts: [String: Int]
        /// The export's `locale`.
        var locale: String?
        /// The export's date after the whole document.
        var exportDate: SampleDraft.Instant?
        /// The size of the input file.
        var totalBytes: Int
    }

    /// What a mapping thread takes: a numbered batch to map, or the end.
    enum Work: Sendable {
        /// Batch `number`, and the input bytes consumed when it was parsed, of `totalBytes`.
        case map(number: Int, ParsedElements, bytesConsumed: Int, totalBytes: Int)
        /// No more batches.
        case end
    }

    /// What the calling thread takes, in document order.
    enum Step: Sendable {
        /// A batch's mappings, and the input bytes consumed when it was parsed.
        case mapped(ExportMapper.Mapped, bytesConsumed: Int, totalBytes: Int)
        /// The end of the document: its summary, or the error that stopped the scanner.
        case end(Result<Summary, any Error>)
    }

    /// Reads the document of the export at `path` in batches of `elementsPerBatch` top-level
    /// elements (tests make them small), calling `keep` with each batch's mapping in
    /// document order and `progress` with the input bytes consumed and
    /// the input's size after each batch. One mapping thread looks UUIDs up in
    /// `usedUUIDs.main`, the other in `usedUUIDs.helper` (one lookup per thread).
    /// Returns the summary and a mapper that knows the export's date, looking UUIDs up in
    /// `usedUUIDs.main` (for the files read after the document).
    ///
    /// - Throws: what ``ExportInput/open(_:)`` and ``ExportScanner/scan(elementsPerBatch:_:)``
    ///   throw (a file that is not an export, malformed XML), or whatever `keep` throws;
    ///   the threads are stopped and joined before it returns or throws.
    static func read(
        _ path: String, elementsPerBatch: Int = 256, usedUUIDs: (main: UsedUUIDs?, helper: UsedUUIDs?) = (nil, nil),
        _ keep: (ExportMapper.Mapped) throws -> Void, progress: (Int, Int) -> Void
    ) throws -> (summary: Summary, mapper: ExportMapper) {
        let work = HandoffQueue<Work>(capacity: 4)
        let steps = OrderedHandoff<Step>(capacity: 4)
        let scanner = try OSThread.start(for: "the import") { scan(path, elementsPerBatch: max(1, elementsPerBatch), work: work, steps: steps) }
        defer {
            work.cancel()
            steps.cancel()
            scanner.join()
        }
        var mappers: [OSThread] = []
        defer {
            work.cancel()
            steps.cancel()
            for thread in mappers { thread.join() }
        }
        for lookup in [usedUUIDs.main, usedUUIDs.helper] {
            mappers.append(try OSThread.start(for: "the import") { mapBatches(work, into: steps, usedUUIDs: lookup) })
        }
        while let step = steps.take() {
            switch step {
            case .mapped(let mapped, let consumed, let total):
                try keep(mapped)
                progress(consumed, total)
            case .end(let result):
                let summary = try result.get()
                var mapper = ExportMapper(usedUUIDs: usedUUIDs.main)
                mapper.resume(exportDate: summary.exportDate)
                return (summary, mapper)
            }
        }
        throw HealthLogError(.io, "the import's parsing thread stopped")
    }

    /// A mapping thread: maps each batch it takes and puts the results in their place in
    /// the document's order, until the end or a cancelled queue.
    private static func mapBatches(_ work: HandoffQueue<Work>, into steps: OrderedHandoff<Step>, usedUUIDs: UsedUUIDs?) {
        OSThread.deferToOtherThreads(by: 5)
        var mapper = ExportMapper(usedUUIDs: usedUUIDs)
        var maker = ElementMaker()
        while case .map(let number, let batch, let consumed, let total)? = work.pop() {
            mapper.resume(exportDate: batch.exportDate)
            var mapped = ExportMapper.Mapped()
            mapped.events.reserveCapacity(batch.count)
            maker.forEachElement(of: batch) { mapper.map($0, into: &mapped) }
            guard steps.put(number, .mapped(mapped, bytesConsumed: consumed, totalBytes: total)) else { return }
        }
    }

    /// The scanner thread: parses the document at `path` and hands out its top-level
    /// elements in numbered batches; then the end (or the error that stopped it), numbered
    /// after the last batch, and an end for each mapping thread. Stops early when a queue is
    /// cancelled.
    private static func scan(_ path: String, elementsPerBatch: Int, work: HandoffQueue<Work>, steps: OrderedHandoff<Step>) {
        /// Thrown to stop the scanner when the mapping threads no longer take batches.
        struct Cancelled: Error {}
        var count = 0
        defer {
            _ = work.push(.end)
            _ = work.push(.end)
        }
        do {
            let source = try ExportInput.open(path)
            defer { source.close() }
            var scanner = try ExportScanner(source)
            try scanner.scan(elementsPerBatch: elementsPerBatch) { batch in
                guard work.push(.map(number: count, batch, bytesConsumed: source.bytesConsumed, totalBytes: source.totalBytes)) else { throw Cancelled() }
                count += 1
            }
            let summary = Summary(
                name: source.documentName, isZip: source is ExportArchive, elementCounts: scanner.elementCounts, locale: scanner.locale,
                exportDate: scanner.exportDate, totalBytes: source.totalBytes)
            _ = steps.put(count, .end(.success(summary)))
        } catch is Cancelled {
            return
        } catch {
            _ = steps.put(count, .end(.failure(error)))
        }
    }
}
