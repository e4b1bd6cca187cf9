#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Partitioned exports, for analysis across many people's stores.
extension HealthStore {
    /// The store's identity as text (a UUID), the default person of a partitioned export.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store.
    package func identityText() throws -> String {
        try LogSnapshot(layout).meta.storeID.text
    }

    /// Writes the live samples `request` selects (its anchor, limit and raw flag are
    /// ignored) as Hive-style partitions: see ``PartitionedExport``. The store is read one
    /// type at a time, so only that type's frames are decompressed. The export replaces the
    /// person's files of the types it covers (all types, or those `request` names): their
    /// files (in either format) that it did not write are removed. Quantities are written in
    /// one unit per type (``PartitionUnits``), as recorded in `recordedValue` and `recordedUnit`.
    ///
    /// ```swift
    /// let report = try store.exportPartitioned(ReplayRequest(), as: PartitionedExport(directory: "lake", person: "alice"))
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store; ``HealthLogError/Code/unsafeFile``
    ///   when a directory in the way is a symbolic link or another user's; ``HealthLogError/Code/io``
    ///   when a file cannot be written (files already renamed into place stay, each whole);
    ///   ``HealthLogError/Code/badUsage`` when a sample's unit does not convert to its type's.
    package func exportPartitioned(_ request: ReplayRequest, as export: PartitionedExport) throws -> PartitionedExport.Report {
        try OwnedDirectory.prepare(export.directory, isNamedByUser: true)
        var report = PartitionedExport.Report()
        let name = export.person + "." + export.format.fileExtension
        let types = try stats().types.map(\.type).filter { request.types.isEmpty || request.types.contains($0) }.sorted()
        for type in types {
            let partition = try PartitionedExport.partition(of: type)
            var writers: [Int: PartitionedExport.Writer] = [:]
            var live = request
            live.types = [type]
            var units = PartitionUnits(type: type, unit: export.unit)
            do {
                _ = try self.export(live) { line in
                    guard let (year, text) = try export.row(line, units: &units) else { return }
                    report.samples += 1
                    if writers[year] == nil {
                        let typeDirectory = export.directory + "/" + partition
                        try OwnedDirectory.prepare(typeDirectory)
                        try OwnedDirectory.prepare(typeDirectory + "/year=\(year)")
                        let writer = try PartitionedExport.Writer(path: typeDirectory + "/year=\(year)/" + name)
                        writers[year] = writer
                        try writer.append(export.header)
                    }
                    try writers[year]!.append(text)
                }
                for (year, writer) in writers.sorted(by: { $0.key < $1.key }) {
                    try writer.finish()
                    try DurableFile.syncDirectory(containing: writer.path)
                    report.files.append("\(partition)/year=\(year)/\(name)")
                }
            } catch {
                for writer in writers.values { writer.abandon() }
                throw error
            }
        }
        let written = Set(report.files)
        let scope = request.types.isEmpty ? nil : Set(try request.types.map(PartitionedExport.partition))
        for partition in try DirectoryListing.names(in: export.directory, isNamedByUser: true)
        where partition.hasPrefix("type=") && scope.map({ $0.contains(partition) }) ?? true {
            let typeDirectory = export.directory + "/" + partition
            guard (try? OwnedDirectory.check(typeDirectory, isPrivate: false)) != nil else { continue }
            for year in try DirectoryListing.names(in: typeDirectory) where year.hasPrefix("year=") {
                for format in PartitionedExport.Format.allCases {
                    let relative = "\(partition)/\(year)/\(export.person).\(format.fileExtension)"
                    guard !written.contains(relative), FileDescriptor.exists(export.directory + "/" + relative) else { continue }
                    try retryingOnInterrupt("cannot remove", path: relative) { unlink(export.directory + "/" + relative) }
                    report.removed.append(relative)
                }
            }
        }
        report.files.sort()
        report.removed.sort()
        return report
    }
}
