#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import HealthLog

extension HealthStore {
    /// Imports an Apple Health export (`export.zip`, or the `export.xml` inside it):
    /// every `Record`, `Correlation`, `Workout`, `ActivitySummary` and `Me` characteristic,
    /// every workout route (GPX files the workouts name, older exports' `Location`
    /// elements) and every electrocardiogram CSV becomes an add event whose UUID is derived
    /// from the record's content, so importing the same export again, or a later export
    /// that holds an earlier one, adds only what is new. Route and electrocardiogram files
    /// that cannot be read are listed in the report and do not stop the import.
    ///
    /// The export is read once and nothing is written until all of it is: one thread
    /// parses the document while this one maps each element and checks its event, then the
    /// route, electrocardiogram and clinical files are read and mapped; a malformed document
    /// is refused with its line and column and leaves the store as it was (not even
    /// created). The checked events wait in a spill (compressed in memory, the
    /// rest in an unlinked temporary file beside the store) and are then appended in appends
    /// of ``ImportOptions/eventsPerAppend`` events, each all-or-nothing and durable. A crash
    /// or I/O failure during the appends leaves whole appends; running the import again
    /// completes it, adding only what is missing. When nothing exists at the store's path,
    /// the appends go, while the export is read, to a new store built beside it,
    /// renamed into place once all of the export was read and appended:
    /// until then nothing exists at the path, whatever fails.
    ///
    /// ```swift
    /// let report = try store.importExport(at: "export.zip")
    /// print(report.summary.added, report.typeCounts)
    /// ```
    ///
    /// - Parameters:
    ///   - path: an export zip (found by its signature) or XML document.
    ///   - options: mirroring and the append size.
    ///   - progress: called as the document is read, then as the events are appended.
    /// - Returns: the counts per element and per type, what could not be mapped, and what
    ///   the appends did.
    /// - Throws: `HealthLogError.Code.badInput` for a malformed document (naming the
    ///   line and column), a document that is not an Apple Health export, or a zip without
    ///   one; `HealthLogError.Code.badUsage` for a file that cannot be opened; a store code
    ///   when writing fails.
    public func importExport(at path: String, options: ImportOptions = ImportOptions(), progress: ((ImportProgress) -> Void)? = nil) throws -> ImportReport {
        // The import's lookups and each of its appends take the UUID index runs one of them checked.
        var checking = self.options
        if checking.checkedRuns == nil { checking.checkedRuns = CheckedUUIDRuns() }
        let store = with(options: checking)
        guard let staging = try ImportStaging.begin(for: directory, timeout: self.options.lockTimeout) else {
            return try store.importExport(at: path, options: options, progress: progress, staging: nil)
        }
        do {
            let report = try store.importExport(at: path, options: options, progress: progress, staging: staging)
            if report.appends > 0 { try staging.commit() } else { staging.abandon() }
            return report
        } catch {
            staging.abandon()
            throw error
        }
    }

    /// ``importExport(at:options:progress:)``, appending to a new store being built in
    /// `staging` while the export is read (``LiveAppendFeed``), or, without one, to this
    /// store after the whole export was read and its events spilled (``EventSpill``,
    /// ``SpillAppendFeed``). Returns before `staging` is committed.
    private func importExport(at path: String, options: ImportOptions, progress: ((ImportProgress) -> Void)?, staging: ImportStaging?) throws -> ImportReport {
        var report = ImportReport()
        let sealing = staging == nil ? try scratchSealing() : nil
        let spill = EventSpill(near: directory, sealing: sealing)
        let members = CorrelationMembers(near: directory, sealing: sealing)
        // A new store holds nothing the export does not derive: nothing to sweep.
        let mirror = options.mirror && staging == nil ? MirrorSweep(near: directory, sealing: sealing) : nil
        var live: LiveAppendFeed?
        if let staging {
            let dated = self.options.origin == nil ? self : withExportDate(ExportInput.exportDate(path))
            // Nothing is at the store's path, so the mapping finds every UUID unused, and the new
            // store starts empty: its appends vouch for their adds from head 0 (those given to an
            // earlier append are looked up), with a filter of about a byte for every 256 bytes of input.
            var writer = ImportWriter(
                store: HealthStore(directory: staging.directory, options: dated.options), eventsPerAppend: options.eventsPerAppend, unusedAsOfHead: 0,
                expectedLines: Self.byteCount(of: path) / 256)
            writer.appendsOutliveFailure = false
            live = try LiveAppendFeed(writer: writer, eventsPerAppend: options.eventsPerAppend, maxBytes: ImportWriter.maxPendingBytes, storeDirectory: directory)
        }
        defer { live?.stop() }
        // Events of one type come in runs (a night of heart rates): counted by run, so the
        // report's table is hashed into once per run, not once per event.
        var run = (type: "", count: 0)
        func countRun() {
            if run.count > 0 { report.typeCounts[run.type, default: 0] += run.count }
        }
        func keep(_ event: ExportMapper.Event, _ flags: EventSpill.Flags) throws {
            // A series stored in parts is counted once, by its head.
            if !event.continuesSeries {
                if run.count > 0, run.type == event.type {
                    run.count += 1
                } else {
                    countRun()
                    run = (event.type, 1)
                }
            }
            if event.isCorrelationMember {
                report.correlationMembers += 1
                try members.add(event.uuid, type: event.type)
            }
            try mirror?.add(event.uuid)
            if let live { try live.add(event, flags) } else { try spill.add(event, flags) }
        }
        var document = try readExport(path, progress: progress) { events, unmapped in
            for item in unmapped { report.note(item) }
            for event in events { try keep(event, event.endsElement ? [.fromDocument, .endsElement] : .fromDocument) }
        }
        if document.isZip { report.repeatedEntries = try ArchiveEntries.repeatedNames(path) }
        let routeFiles = try RouteFiles(input: path, isZip: document.isZip, references: document.routes)
        var routeElements: [String: Int] = [:]
        var routeFilesRead = 0
        report.routeProblems = try routeFiles.read(document.routes, mapper: document.mapper, counts: &routeElements, filesRead: &routeFilesRead) {
            try keep($0, .endsElement)
        }
        report.routeFileElements = routeElements
        report.routeFilesRead = routeFilesRead
        let ecgs = try ECGFiles.read(input: path, isZip: document.isZip, mapper: document.mapper) { try keep($0, .endsElement) }
        report.electrocardiogramFilesRead = ecgs.filesRead
        report.electrocardiogramVoltages = ecgs.voltages
        report.electrocardiogramProblems = ecgs.problems
        let clinical = try ClinicalFiles.read(document.clinical, input: path, isZip: document.isZip, mapper: document.mapper) { try keep($0, .endsElement) }
        document.releaseFiles()
        countRun()
        report.clinicalResourcesRead = clinical.resourcesRead
        report.clinicalProblems = clinical.problems
        report.document = document.name
        report.elementCounts = document.elementCounts
        report.locale = document.locale
        report.exportDate = document.exportDate
        var writer: ImportWriter
        let membersAlsoTopLevel: [String: Int]
        let total = document.totalBytes
        if let live {
            (writer, membersAlsoTopLevel) = try live.finish(members: members)
            progress?(ImportProgress(phase: .writing, bytesDone: total, bytesTotal: total))
        } else {
            writer = ImportWriter(store: withExportDate(document.exportDate), eventsPerAppend: options.eventsPerAppend, unusedAsOfHead: document.unusedAsOfHead, expectedLines: spill.lineCount)
            let spilled = max(1, spill.size)
            let outcome = try SpillAppendFeed.run(
                spill, members: members, eventsPerAppend: options.eventsPerAppend, maxBytes: ImportWriter.maxPendingBytes
            ) { gathered in
                try writer.append(gathered)
            } progress: { done in
                progress?(ImportProgress(phase: .writing, bytesDone: Int(Double(total) * Double(done) / Double(spilled)), bytesTotal: total))
            }
            membersAlsoTopLevel = outcome.membersAlsoTopLevel
        }
        for (type, count) in membersAlsoTopLevel {
            report.typeCounts[type, default: 0] -= count
            report.correlationMembersAlsoTopLevel += count
        }
        if let mirror {
            try mirror.sweep { imported in
                try writer.store.forEachLiveSample(withMetadataKey: SampleDraft.markerKey, imported)
            } gone: { uuid in
                try writer.add(Array("{\"op\":\"delete\",\"uuid\":\"\(uuid)\"}\n".utf8))
                try writer.flushIfFull()
            }
            try writer.flush()
        }
        report.summary = writer.summary
        report.appends = writer.appends
        report.vouchedAppends = writer.vouchedAppends
        if report.appends == 0, exists { report.summary.anchor = try headAnchor() }
        return report
    }

    /// This store, with the export's date added to the origin its appends record (when
    /// they record one).
    private func withExportDate(_ date: String?) -> HealthStore {
        guard var origin = options.origin, let date else { return self }
        origin.exportDate = date
        var options = options
        options.origin = origin
        return with(options: options)
    }

    /// The size of the file at `path` in bytes (0 if it cannot be stat'ed).
    private static func byteCount(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The one pass over the export document (``DocumentPass``): maps each top-level
    /// element and hands its events to `body`, in document order. Returns what the
    /// document says about itself, and its element counts.
    private func readExport(
        _ path: String, progress: ((ImportProgress) -> Void)?, _ body: ([ExportMapper.Event], [UnmappedItem]) throws -> Void
    ) throws -> ExportDocument {
        var routes: [ExportMapper.RouteReference] = []
        var clinical: [ExportMapper.ClinicalReference] = []
        let read: (summary: DocumentPass.Summary, mapper: ExportMapper)
        let mainUUIDs = (try? self.usedUUIDs()) ?? nil
        let usedUUIDs = (mainUUIDs, (try? self.usedUUIDs(sharing: mainUUIDs)) ?? nil)
        let unusedAsOfHead = usedUUIDs.0.flatMap { main in usedUUIDs.1.flatMap { $0.headSeq == main.headSeq ? main.headSeq : nil } }
        do {
            read = try DocumentPass.read(path, usedUUIDs: usedUUIDs) { mapped in
                routes += mapped.routes
                clinical += mapped.clinical
                try body(mapped.events, mapped.unmapped)
            } progress: { done, total in
                progress?(ImportProgress(phase: .checking, bytesDone: done, bytesTotal: total))
            }
        } catch var error as HealthLogError where error.code == .badInput && error.message.contains("malformed XML") && (try? ExportInput.looksLikeIOS8(path)) == true {
            error.message += " (an iOS 8 export: it writes metadata as attributes, some with spaces in their names, which is not XML; such a file cannot be imported)"
            throw error
        }
        let summary = read.summary
        return ExportDocument(
            name: summary.name, totalBytes: summary.totalBytes, elementCounts: summary.elementCounts, locale: summary.locale,
            exportDate: read.mapper.exportDate?.iso, isZip: summary.isZip, routes: routes, clinical: clinical, mapper: read.mapper,
            unusedAsOfHead: unusedAsOfHead)
    }
}

/// What one pass over an export document found: what the document says about itself,
/// its element counts, the route files its workouts name, and the mapper as it ended
/// (which knows the export's date, for the routes' import marker).
struct ExportDocument {
    /// The document read: the file, or the zip and its entry.
    var name: String
    /// The size of the input file, for progress.
    var totalBytes: Int
    /// Every element by name, at every depth.
    var elementCounts: [String: Int]
    /// The export's `locale`.
    var locale: String?
    /// The export's `ExportDate` as ISO 8601 text.
    var exportDate: String?
    /// Whether the input is a zip.
    var isZip: Bool
    /// The route files the workouts name, in document order.
    var routes: [ExportMapper.RouteReference]
    /// The clinical records, waiting for their FHIR resources, in document order.
    var clinical: [ExportMapper.ClinicalReference]
    /// The mapper after the document.
    var mapper: ExportMapper
    /// The store's head as of which both mapping threads' lookups found the UUIDs of the
    /// events marked ``ExportMapper/Event/checkedUnused`` unused; `nil` when they did not
    /// look up as of one head.
    var unusedAsOfHead: UInt64?

    /// Lets go of what mapping the files the document names takes, once they are read: the
    /// references, and the mapper with its lookup in the store, which keeps the batches it
    /// read decoded (megabytes in a large store), not needed by the appends.
    mutating func releaseFiles() {
        routes = []
        clinical = []
        mapper = ExportMapper()
    }
}
