import HealthLog

/// The one pass over an export document, on three threads so both cores work: a scanner
/// thread parses the document (``ExportScanner``) into batches of top-level elements; the
/// batches alternate between the calling thread, which maps them itself, and a helper
/// thread, which maps them and hands the results back; the calling thread takes every
/// batch's results in document order. Mapping is pure (the same element always maps to the
/// same events) once the mapper knows the export's date, which each batch carries as of its
/// first element, so the events, their order and what could not be mapped are those of a
/// single mapper reading the document front to back.
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

    /// Consecutive top-level elements.
    struct Batch: Sendable {
        /// The elements, in document order.
        var elements: [ExportElement]
        /// The export's date as of the first element.
        var exportDate: SampleDraft.Instant?
    }

    /// What the calling thread takes from the scanner, in document order.
    enum Step: Sendable {
        /// A batch to map here.
        case map(Batch, bytesConsumed: Int, totalBytes: Int)
        /// A batch the helper maps: its results are the helper's next.
        case mappedByHelper(bytesConsumed: Int, totalBytes: Int)
        /// The end of the document: its summary, or the error that stopped the scanner.
        case end(Result<Summary, any Error>)
    }

    /// What the helper thread takes: a batch to map, or the end.
    enum HelperWork: Sendable {
        /// A batch to map.
        case map(Batch)
        /// No more batches.
        case end
    }

    /// Reads the document of the export at `path` in batches of `elementsPerBatch` top-level
    /// elements (tests make them small), calling `keep` with each top-level
    /// element's mapping in document order and `progress` with the input bytes consumed and
    /// the input's size after each batch. The calling thread's mapper looks UUIDs up in
    /// `usedUUIDs.main`, the helper's in `usedUUIDs.helper` (one lookup per thread).
    /// Returns the summary and a mapper that knows the export's date (for the files read
    /// after the document).
    ///
    /// - Throws: what ``ExportInput/open(_:)`` and ``ExportScanner/scan(_:)`` throw
    ///   (a file that is not an export, malformed XML), or whatever `keep` throws; the
    ///   threads are stopped and joined before it returns or throws.
    static func read(
        _ path: String, elementsPerBatch: Int = 256, usedUUIDs: (main: UsedUUIDs?, helper: UsedUUIDs?) = (nil, nil),
        _ keep: (ExportMapper.Mapped) throws -> Void, progress: (Int, Int) -> Void
    ) throws -> (summary: Summary, mapper: ExportMapper) {
        let steps = HandoffQueue<Step>(capacity: 4)
        let helperWork = HandoffQueue<HelperWork>(capacity: 2)
        let results = HandoffQueue<[ExportMapper.Mapped]>(capacity: 2)
        let scanner = try OSThread.start(for: "the import") { scan(path, elementsPerBatch: max(1, elementsPerBatch), steps: steps, helper: helperWork) }
        defer {
            steps.cancel()
            helperWork.cancel()
            results.cancel()
            scanner.join()
        }
        let helperUUIDs = usedUUIDs.helper
        let helper = try OSThread.start(for: "the import") { mapBatches(helperWork, into: results, usedUUIDs: helperUUIDs) }
        defer {
            helperWork.cancel()
            results.cancel()
            helper.join()
        }
        var mapper = ExportMapper(usedUUIDs: usedUUIDs.main)
        while let step = steps.pop() {
            switch step {
            case .map(let batch, let consumed, let total):
                mapper.resume(exportDate: batch.exportDate)
                for element in batch.elements { try keep(mapper.map(element)) }
                progress(consumed, total)
            case .mappedByHelper(let consumed, let total):
                guard let mapped = results.pop() else { throw HealthLogError(.io, "the import's mapping thread stopped") }
                for element in mapped { try keep(element) }
                progress(consumed, total)
            case .end(let result):
                let summary = try result.get()
                mapper.resume(exportDate: summary.exportDate)
                return (summary, mapper)
            }
        }
        throw HealthLogError(.io, "the import's parsing thread stopped")
    }

    /// The helper thread: maps each batch it is given and hands the results on, in order,
    /// until the end or a cancelled queue.
    private static func mapBatches(_ work: HandoffQueue<HelperWork>, into results: HandoffQueue<[ExportMapper.Mapped]>, usedUUIDs: UsedUUIDs?) {
        var mapper = ExportMapper(usedUUIDs: usedUUIDs)
        while case .map(let batch)? = work.pop() {
            mapper.resume(exportDate: batch.exportDate)
            guard results.push(batch.elements.map { mapper.map($0) }) else { return }
        }
    }

    /// The scanner thread: parses the document at `path` and hands out its top-level
    /// elements in batches, every other one to the helper; then the end (or the error that
    /// stopped it). Stops early when a queue is cancelled.
    private static func scan(_ path: String, elementsPerBatch: Int, steps: HandoffQueue<Step>, helper: HandoffQueue<HelperWork>) {
        /// Thrown to stop the scanner when the calling thread no longer takes batches.
        struct Cancelled: Error {}
        var exportDate: SampleDraft.Instant?
        var batchDate: SampleDraft.Instant?
        var batch: [ExportElement] = []
        var count = 0
        func handOut(_ source: any ExportByteSource) -> Bool {
            defer {
                batch.removeAll(keepingCapacity: true)
                batchDate = exportDate
                count += 1
            }
            let handed = Batch(elements: batch, exportDate: batchDate)
            if count % 2 == 1 {
                return helper.push(.map(handed)) && steps.push(.mappedByHelper(bytesConsumed: source.bytesConsumed, totalBytes: source.totalBytes))
            }
            return steps.push(.map(handed, bytesConsumed: source.bytesConsumed, totalBytes: source.totalBytes))
        }
        do {
            let source = try ExportInput.open(path)
            defer { source.close() }
            var scanner = try ExportScanner(source)
            batch.reserveCapacity(elementsPerBatch)
            try scanner.scan { element in
                batch.append(element)
                if let date = ExportMapper.exportDate(of: element) { exportDate = date }
                guard batch.count >= elementsPerBatch else { return }
                guard handOut(source) else { throw Cancelled() }
            }
            guard batch.isEmpty || handOut(source), helper.push(.end) else { return }
            let summary = Summary(
                name: source.documentName, isZip: source is ExportArchive, elementCounts: scanner.elementCounts, locale: scanner.locale,
                exportDate: exportDate, totalBytes: source.totalBytes)
            _ = steps.push(.end(.success(summary)))
        } catch is Cancelled {
            return
        } catch {
            _ = helper.push(.end)
            _ = steps.push(.end(.failure(error)))
        }
    }
}
