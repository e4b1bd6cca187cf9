public import HealthLog

/// What an import read, mapped and wrote.
public struct ImportReport: Sendable {
    /// The document read: the file, or the zip and its entry.
    public var document = ""
    /// The export's `locale`.
    public var locale: String?
    /// The export's `ExportDate` as ISO 8601 text, offset kept.
    public var exportDate: String?
    /// Every element of the document by name, at every depth.
    public var elementCounts: [String: Int] = [:]
    /// Distinct samples in the export by type identifier: a `Record` inside a
    /// `Correlation` that also appears at top level (same content, so same UUID) counts once.
    public var typeCounts: [String: Int] = [:]
    /// `Record`s inside `Correlation`s that mapped.
    public var correlationMembers = 0
    /// Of those, how many also appear at top level (counted once in ``typeCounts``).
    public var correlationMembersAlsoTopLevel = 0
    /// What could not be mapped, in document order (the first ``maxListedUnmapped``).
    public var unmapped: [UnmappedItem] = []
    /// How many items could not be mapped in all.
    public var unmappedCount = 0
    /// Items not mapped, by element name.
    public var unmappedByElement: [String: Int] = [:]
    /// Route files (GPX) read, each once however many routes name it.
    public var routeFilesRead = 0
    /// The elements of the route files read, by name (`trkpt` are their points).
    public var routeFileElements: [String: Int] = [:]
    /// Route files named that could not be read (missing, not GPX, malformed, cut short),
    /// or whose points were partly left out; the rest of the export imported all the same.
    public var routeProblems: [ReferencedFileProblem] = []
    /// Electrocardiogram CSVs read, each one sample.
    public var electrocardiogramFilesRead = 0
    /// The voltages they held, in all.
    public var electrocardiogramVoltages = 0
    /// Electrocardiogram CSVs that could not be read; the rest imported all the same.
    public var electrocardiogramProblems: [ExportFileProblem] = []
    /// Clinical records' FHIR resource files read (each kept whole in its record).
    public var clinicalResourcesRead = 0
    /// Clinical records whose resource file could not be read (imported without it).
    public var clinicalProblems: [ReferencedFileProblem] = []
    /// Names that more than one file of the zip has, with how many have each: the first
    /// file of each name is the one read.
    public var repeatedEntries: [(name: String, count: Int)] = []
    /// What the appends did, added up: `added` and `alreadyPresent` (records an earlier
    /// import brought in), `replaced` and `skipped` by sync identifier, and `deleted` by
    /// `--mirror`. `anchor` is the head after the import.
    public var summary = AppendSummary()
    /// How many appends the writing pass made.
    public var appends = 0
    /// How many of them vouched for their adds (found unused while mapping), so their
    /// writers looked up only the UUIDs an earlier append was given; for tests.
    var vouchedAppends = 0

    /// How many unmapped items ``unmapped`` lists at most.
    public static let maxListedUnmapped = 1000

    /// Records an item that could not be mapped.
    mutating func note(_ item: UnmappedItem) {
        unmappedCount += 1
        unmappedByElement[item.element, default: 0] += 1
        if unmapped.count < Self.maxListedUnmapped { unmapped.append(item) }
    }
}
