import HealthLog
import HealthLogImport

extension ImportReport {
    /// What `healthlog import` prints of the report, in order: the torn tail cut, the
    /// document, the counts per element and per type, the route files read and those that
    /// could not be, a note per type healthlog does not know (``HealthKitTypes``) and what
    /// could not be mapped on standard error, then the anchor on standard output, then the
    /// summary on standard error.
    var messages: [ImportWorkerMessage] {
        var out: [ImportWorkerMessage] = []
        if let torn = summary.recoveredTail { out.append(.stderr("healthlog: cut a \(torn.summary)")) }
        var head = "healthlog: read \(document)"
        if let locale { head += ", locale \(locale)" }
        if let exportDate { head += ", exported \(exportDate)" }
        out.append(.stderr(head))
        out.append(.stderr("elements:"))
        for (name, count) in elementCounts.sorted(by: { $0.key < $1.key }) {
            let note = name == "Record" && correlationMembers > 0 ? " (\(correlationMembers) in correlations)" : ""
            out.append(.stderr("  \(name) \(count)\(note)"))
        }
        out.append(.stderr("samples by type:"))
        for (type, count) in typeCounts.sorted(by: { $0.key < $1.key }) { out.append(.stderr("  \(type) \(count)")) }
        if correlationMembersAlsoTopLevel > 0 {
            out.append(.stderr("  (\(correlationMembersAlsoTopLevel) correlation members also at top level, counted once)"))
        }
        if routeFilesRead > 0 || !routeProblems.isEmpty {
            let elements = routeFileElements.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            out.append(.stderr("route files: \(routeFilesRead) read" + (elements.isEmpty ? "" : " (\(elements))")))
            if !routeProblems.isEmpty { out.append(.stderr("route files not read, or read in part: \(routeProblems.count)")) }
            for problem in routeProblems { out.append(.stderr("  \(problem)")) }
        }
        if electrocardiogramFilesRead > 0 || !electrocardiogramProblems.isEmpty {
            out.append(.stderr("electrocardiograms: \(electrocardiogramFilesRead) read (\(electrocardiogramVoltages) voltages)"))
            if !electrocardiogramProblems.isEmpty { out.append(.stderr("electrocardiograms not read: \(electrocardiogramProblems.count)")) }
            for problem in electrocardiogramProblems { out.append(.stderr("  \(problem)")) }
        }
        if clinicalResourcesRead > 0 || !clinicalProblems.isEmpty {
            out.append(.stderr("clinical records' FHIR resources: \(clinicalResourcesRead) read"))
            if !clinicalProblems.isEmpty { out.append(.stderr("clinical records imported without their resource: \(clinicalProblems.count)")) }
            for problem in clinicalProblems { out.append(.stderr("  \(problem)")) }
        }
        for (name, count) in repeatedEntries {
            out.append(.stderr("healthlog: note: the zip holds \(count) files named \(name): the first is read, the others passed over"))
        }
        for type in typeCounts.keys.sorted() where !HealthKitTypes.isKnown(type) {
            out.append(.stderr("healthlog: note: type \(type) is not one healthlog knows (a newer HealthKit type?): imported as given, without checks of its units or values"))
        }
        if unmappedCount > 0 {
            let byElement = unmappedByElement.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            out.append(.stderr("not mapped: \(unmappedCount) (\(byElement))"))
            for item in unmapped { out.append(.stderr("  \(item)")) }
            if unmappedCount > unmapped.count { out.append(.stderr("  … and \(unmappedCount - unmapped.count) more")) }
        }
        out.append(.stdout(summary.anchor.token))
        var counts = "added \(summary.added), already present \(summary.alreadyPresent)"
        if summary.deletedEarlier > 0 { counts += ", deleted earlier and not restored \(summary.deletedEarlier)" }
        out.append(.stderr("healthlog: \(counts), deleted \(summary.deleted), replaced \(summary.replaced), skipped \(summary.skipped)"))
        return out
    }
}
