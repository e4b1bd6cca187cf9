#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// Maps the top-level elements of an export to event lines, validated by the
/// store's own event parser, and lists what it cannot map. Pure: the same element always
/// maps to the same lines, so the import's checking pass and writing pass agree.
struct ExportMapper {
    /// One event to append.
    struct Event {
        /// The sample's type identifier.
        var type: String
        /// The content-derived UUID.
        var uuid: SampleUUID
        /// The event line, newline included.
        var line: [UInt8]
        /// Whether the sample is a member of a correlation (a `Record` inside a `Correlation`).
        var isCorrelationMember: Bool
        /// What the store held under the UUID when the event was mapped; `nil` when
        /// nothing (or the mapper had no lookup). An event the store holds has no line:
        /// an importing append would only count it.
        var inStore: InStore? = nil
        /// Whether the store's UUID index showed the UUID unused when the event was mapped.
        var checkedUnused = false
        /// What the validator prepared of ``line`` for the append
        /// (``ImportLineValidator/prepare(line:)``), or `nil`: the append then prepares it.
        var prepared: [UInt8]? = nil
        /// Whether the event is a part after the head of a series stored in parts
        /// (``SeriesParts``): the report counts the series once, by its head.
        var continuesSeries = false
        /// Whether the event is the last of those its top-level element maps to (an
        /// append ends only there, so a correlation's members go with it).
        var endsElement = false
    }

    /// A UUID the store has used: by a live sample or a deleted one.
    enum InStore {
        /// A live sample has it: the append counts it as already present.
        case live
        /// A deleted sample had it: the append counts it as deleted earlier.
        case deleted

        /// The use a lookup found, or `nil` for none (or none known).
        init?(_ state: UsedUUIDs.State) {
            switch state {
            case .live: self = .live
            case .deleted: self = .deleted
            case .unused, .unknown: return nil
            }
        }
    }

    /// A route file a workout names, read after the document: the route's fields (its
    /// workout's UUID included), waiting for the file's points.
    struct RouteReference {
        /// The path as the `FileReference` writes it (`/workout-routes/route_….gpx`).
        var path: String
        /// The route sample without its `locations`.
        var draft: SampleDraft
        /// The line of the `WorkoutRoute` element.
        var line: Int
    }

    /// A clinical record, waiting for its FHIR resource file (`resourceFilePath`).
    struct ClinicalReference {
        /// The path as the element writes it (`/clinical-records/….json`).
        var path: String
        /// The record's sample without the resource.
        var draft: SampleDraft
        /// The line of the `ClinicalRecord` element.
        var line: Int
    }

    /// The metadata key of a clinical record's FHIR resource, the file's text as it is.
    static let fhirResourceKey = SampleDraft.keyPrefix + "fhirResource"
    /// The metadata key of a sample's `creationDate` (made once, not per record).
    static let creationDateKey = SampleDraft.keyPrefix + "creationDate"
    /// The metadata key of a category record's `unit`.
    static let unitKey = SampleDraft.keyPrefix + "unit"
    /// The attributes a record's own fields consume besides the sample's: its value and unit.
    static let recordFields = ["value", "unit"]

    /// The ISO 8601 text of `ExportDate`, once read.
    private(set) var exportDate: SampleDraft.Instant? {
        didSet { marker = Array((exportDate.map { JSONText.string($0.iso) } ?? "true").utf8) }
    }
    /// The import marker's JSON value: the export's date, or `true` when it has none;
    /// rendered once, not per record.
    private var marker = Array("true".utf8)
    /// The hash, validator and buffers reused from record to record.
    private let workspace: LineWorkspace

    /// A mapper that has mapped nothing yet; with `usedUUIDs`, an event whose UUID the
    /// store has used is neither rendered nor validated (it was when it was imported) and
    /// comes without its line.
    init(usedUUIDs: UsedUUIDs? = nil) {
        workspace = LineWorkspace(usedUUIDs: usedUUIDs)
    }

    /// What a run of top-level elements maps to, in document order: one value for a batch
    /// of elements, not arrays made for each.
    struct Mapped {
        /// The events; the last of each element's is marked ``Event/endsElement``.
        var events: [Event] = []
        /// What could not be mapped, each with its line.
        var unmapped: [UnmappedItem] = []
        /// The route files the workouts name.
        var routes: [RouteReference] = []
        /// The clinical records waiting for their resource files.
        var clinical: [ClinicalReference] = []
    }

    /// The date an `ExportDate` element gives, as ``map(_:into:)`` takes it; `nil` for
    /// another element or one whose value is not a date.
    static func exportDate(of element: ExportElement) -> SampleDraft.Instant? {
        guard element.name == "ExportDate", let value = element["value"] else { return nil }
        return ExportDateFormat.instant(value)
    }

    /// Takes `date` as the export's date, as if its `ExportDate` had been mapped here: for a
    /// mapper that maps a batch of elements from the middle of the document.
    mutating func resume(exportDate date: SampleDraft.Instant?) {
        if exportDate?.iso != date?.iso || exportDate?.instant != date?.instant { exportDate = date }
    }

    /// Adds to `mapped` the events of `element` (members before their correlation, a
    /// workout before its routes), what could not be mapped, each with its line, and the
    /// route files a workout names.
    mutating func map(_ element: ExportElement, into mapped: inout Mapped) {
        func skip(_ what: ExportElement, _ reason: String) {
            mapped.unmapped.append(UnmappedItem(line: what.line, element: what.name, reason: reason))
        }
        let first = mapped.events.count
        switch element.name {
        case "ExportDate":
            if let date = Self.exportDate(of: element) {
                exportDate = date
            } else {
                skip(element, "value '\(element["value"] ?? "")' is not a date in the export's format")
            }
        case "Me":
            mapped.events += mapMe(element, skip)
        case "Record":
            if let event = mapRecord(element, isMember: false, skip) { mapped.events.append(event) }
        case "Correlation":
            mapped.events += mapCorrelation(element, skip)
        case "Workout":
            mapped.events += mapWorkout(element, skip, &mapped.routes)
        case "ActivitySummary":
            if let event = mapActivitySummary(element, skip) { mapped.events.append(event) }
        case "ClinicalRecord":
            if let reference = mapClinicalRecord(element, skip) { mapped.clinical.append(reference) }
        case "Audiogram":
            if let event = mapAudiogram(element, skip) { mapped.events.append(event) }
        case "VisionPrescription":
            if let event = mapVisionPrescription(element, skip) { mapped.events.append(event) }
        default:
            skip(element, "unknown element")
        }
        if mapped.events.count > first { mapped.events[mapped.events.count - 1].endsElement = true }
    }

    /// Validates a draft with the store's parser and renders its event, under `uuid` when
    /// given (a series part's), else the content-derived one.
    private func finish(
        _ draft: SampleDraft, _ element: ExportElement, isMember: Bool, uuid given: SampleUUID? = nil, _ skip: (ExportElement, String) -> Void
    ) -> Event? {
        for key in draft.conflicts {
            skip(element, "metadata key '\(key)' is given again with another value; the first value is kept")
        }
        let uuid = given ?? draft.contentUUID(workspace)
        let state = workspace.usedUUIDs?.state(of: uuid) ?? .unknown
        if let inStore = InStore(state) {
            return Event(type: draft.type, uuid: uuid, line: [], isCorrelationMember: isMember, inStore: inStore)
        }
        var rendered = workspace.line
        rendered.removeAll()
        draft.render(uuid: uuid, marker: marker, into: &rendered)
        guard rendered.count <= LineReader.maxLineLength else {
            skip(element, "not a valid event: its line would be \(rendered.count) bytes, longer than the \(LineReader.maxLineLength) a stored line may hold")
            return nil
        }
        let prepared: [UInt8]?
        do {
            prepared = try workspace.validator.prepare(line: rendered.bytes)
        } catch let error as HealthLogError {
            skip(element, "not a valid event: \(error.message)")
            return nil
        } catch {
            skip(element, "not a valid event: \(error)")
            return nil
        }
        return Event(
            type: draft.type, uuid: uuid, line: rendered.array(appending: 0x0A), isCorrelationMember: isMember, checkedUnused: state == .unused,
            prepared: prepared)
    }

    /// A new draft with the type, dates, source fields and metadata every sample element has.
    private func draft(_ element: ExportElement, type: String, _ skip: (ExportElement, String) -> Void) -> SampleDraft? {
        guard let startText = element["startDate"], let start = ExportDateFormat.instant(startText, days: workspace.days) else {
            skip(element, "startDate '\(element["startDate"] ?? "")' is missing or not a date in the export's format")
            return nil
        }
        let endText = element["endDate"] ?? startText
        // Most samples end when they start: the same text, converted once.
        guard let end = endText == startText ? start : ExportDateFormat.instant(endText, days: workspace.days) else {
            skip(element, "endDate '\(endText)' is not a date in the export's format")
            return nil
        }
        var draft = SampleDraft(type: type, start: start, end: end)
        addCommonFields(of: element, to: &draft, skip)
        return draft
    }

    /// Adds to `draft` the source fields and metadata every sample element has. Apart from
    /// ``draft(_:type:_:)`` so that it returns the draft it made without copying it (built
    /// there, the draft was copied into the optional it returns and then destroyed: each of
    /// its fields retained and released once more per record).
    private func addCommonFields(of element: ExportElement, to draft: inout SampleDraft, _ skip: (ExportElement, String) -> Void) {
        draft.source = element["sourceName"] ?? element["source"]
        draft.sourceVersion = element["sourceVersion"]
        if let device = element["device"] {
            let stable = Self.stableDevice(device, last: workspace.lastDevice)
            workspace.lastDevice = stable
            draft.device = stable
        }
        if let text = element["creationDate"] {
            if let date = ExportDateFormat.instant(text, days: workspace.days) {
                draft.addMetadata(Self.creationDateKey, date: date)
            } else {
                draft.addMetadata(Self.creationDateKey, text: text)
            }
        }
        for child in element.children {
            if child.name == "MetadataEntry" {
                guard let key = child["key"] else {
                    skip(child, "MetadataEntry without a key")
                    continue
                }
                draft.addMetadata(key, text: child["value"] ?? "")
            }
        }
        // Each name's children as the JSON text of an array of objects (`[{…},{…}]`), kept as
        // a string: written as bytes, then quoted, as `JSONText.string` of that text.
        var grouped: [String: [UInt8]] = [:]
        for child in element.children where child.name != "MetadataEntry" && child.name != "Record" {
            grouped[child.name, default: [0x5B]].withSeparator { Self.json(child, into: &$0) }
        }
        for (name, objects) in grouped {
            var array = objects
            array.append(0x5D)
            var literal: [UInt8] = []
            literal.reserveCapacity(array.count + 16)
            array.withUnsafeBufferPointer { JSONBytes.appendString(bytes: $0, to: &literal) }
            draft.addMetadata(SampleDraft.keyPrefix + name, json: String(decoding: literal, as: UTF8.self))
        }
    }

    /// Whether a sample element's own fields consume the attribute `name`; others go to
    /// metadata.
    private static func isSampleAttribute(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name == "type"
        case 6: name == "source" || name == "device"
        case 7: name == "endDate"
        case 9: name == "startDate"
        case 10: name == "sourceName"
        case 12: name == "creationDate"
        case 13: name == "sourceVersion"
        default: false
        }
    }

    /// Keeps the attributes that are not fields as metadata entries, under their own names.
    private func keepAttributes(_ element: ExportElement, except used: [String], in draft: inout SampleDraft) {
        for attribute in element.attributes where !Self.isSampleAttribute(attribute.name) && !used.contains(where: { $0.isSameName(attribute.name) }) {
            draft.addMetadata(attribute.name, text: attribute.value)
        }
    }

    private func mapRecord(_ element: ExportElement, isMember: Bool, _ skip: (ExportElement, String) -> Void) -> Event? {
        guard let type = element["type"], let kind = workspace.kind(of: type) else {
            skip(element, "type '\(element["type"] ?? "")' is not a HealthKit type identifier")
            return nil
        }
        guard var draft = draft(element, type: type, skip) else { return nil }
        var used = Self.recordFields
        let value = element["value"]
        switch kind {
        case .quantity:
            let number = value ?? element["average"]
            if value == nil, number != nil { used.append("average") }
            guard let number, let json = Self.number(number) else {
                skip(element, value == nil ? "quantity record without a value" : "value '\(value!)' is not a number")
                return nil
            }
            draft.value = json
            guard let unit = element["unit"], !unit.isEmpty else {
                skip(element, "quantity record without a unit")
                return nil
            }
            draft.unit = unit
        case .category:
            if let value, !value.isEmpty {
                draft.value = Int(value) != nil && JSONText.isNumber(value) ? value : JSONText.string(value)
            } else {
                draft.value = JSONText.string("HKCategoryValueNotApplicable")
            }
            if let unit = element["unit"], !unit.isEmpty { draft.addMetadata(Self.unitKey, text: unit) }
        default:
            if let value { draft.value = Self.number(value) ?? JSONText.string(value) }
            if let unit = element["unit"], !unit.isEmpty { draft.unit = unit }
        }
        keepAttributes(element, except: used, in: &draft)
        return finish(draft, element, isMember: isMember, skip)
    }

    private func mapCorrelation(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> [Event] {
        guard let type = element["type"], SampleKind(typeIdentifier: type) == .correlation else {
            skip(element, "type '\(element["type"] ?? "")' is not a correlation type identifier")
            return []
        }
        let members = element.children(named: "Record").compactMap { mapRecord($0, isMember: true, skip) }
        guard !members.isEmpty else {
            skip(element, "correlation without a member that maps")
            return []
        }
        guard var draft = draft(element, type: type, skip) else { return [] }
        draft.objects = members.map(\.uuid)
        keepAttributes(element, except: [], in: &draft)
        guard let correlation = finish(draft, element, isMember: false, skip) else { return [] }
        return members + [correlation]
    }

    /// Seconds per unit of a workout's `durationUnit`.
    private static let secondsPer: [String: Double] = ["s": 1, "sec": 1, "min": 60, "hr": 3600, "h": 3600]

    private func mapWorkout(_ element: ExportElement, _ skip: (ExportElement, String) -> Void, _ routes: inout [RouteReference]) -> [Event] {
        guard let activity = element["workoutActivityType"] else {
            skip(element, "workout without workoutActivityType")
            return []
        }
        guard var draft = draft(element, type: "HKWorkoutTypeIdentifier", skip) else { return [] }
        draft.activity = activity
        var used = ["workoutActivityType"]
        // A negative duration, which append refuses, stays in the metadata as the other attributes not mapped do.
        if let text = element["duration"], let minutes = Double(text), minutes.isFinite, minutes >= 0,
            let factor = Self.secondsPer[element["durationUnit"] ?? "min"], (minutes * factor).isFinite
        {
            draft.duration = Self.number(String(minutes * factor))
            draft.addMetadata(SampleDraft.keyPrefix + "duration", json: JSONText.string(text + " " + (element["durationUnit"] ?? "min")))
            used += ["duration", "durationUnit"]
        }
        for attribute in element.attributes where attribute.name.hasPrefix("total") && !attribute.name.hasSuffix("Unit") {
            guard let value = Self.number(attribute.value), let unit = element[attribute.name + "Unit"] else { continue }
            let name = attribute.name == "totalDistance" ? "distance" : attribute.name == "totalEnergyBurned" ? "energy" : attribute.name
            draft.totals.append((name, value, unit))
            used += [attribute.name, attribute.name + "Unit"]
        }
        for statistics in element.children(named: "WorkoutStatistics") {
            guard let type = statistics["type"], let sum = statistics["sum"].flatMap(Self.number), let unit = statistics["unit"] else { continue }
            let name = type.hasSuffix("ActiveEnergyBurned") ? "energy" : type.contains("Distance") ? "distance" : nil
            if let name, !draft.totals.contains(where: { $0.name == name }) { draft.totals.append((name, sum, unit)) }
        }
        keepAttributes(element, except: used, in: &draft)
        guard let workout = finish(draft, element, isMember: false, skip) else { return [] }
        return [workout] + mapRoutes(of: element, workout: workout.uuid, skip, &routes)
    }

    /// A workout's routes: each `WorkoutRoute` with inline `Location` points becomes a route
    /// sample now; each route file it names (once per workout, though a workout may name a
    /// file twice) becomes a reference read after the document.
    private func mapRoutes(
        of workout: ExportElement, workout uuid: SampleUUID, _ skip: (ExportElement, String) -> Void, _ routes: inout [RouteReference]
    ) -> [Event] {
        var events: [Event] = []
        var named: Set<String> = []
        for route in workout.children(named: "WorkoutRoute") {
            guard var draft = draft(route, type: WorkoutRouteSample.type.identifier, skip) else { continue }
            draft.workout = uuid
            keepAttributes(route, except: [], in: &draft)
            let paths = route.children(named: "FileReference").compactMap { $0["path"] }.filter { !$0.isEmpty }
            if route.locationCount > 0 {
                let points = route.routePoints ?? RoutePoints()
                if points.leftOut > 0 {
                    skip(route, "\(points.leftOut) of its \(route.locationCount) Location points have no date or coordinates and are left out")
                }
                var inline = draft
                let parts = points.parts
                if parts.count == 1 {
                    inline.locations = parts[0]
                    if let event = finish(inline, route, isMember: false, skip) { events.append(event) }
                } else {
                    var head: SampleUUID?
                    for (index, part) in parts.enumerated() {
                        inline.locations = part
                        guard let event = seriesPart(inline, index: index, series: head, route, skip) else { break }
                        head = head ?? event.uuid
                        events.append(event)
                    }
                }
            } else if paths.isEmpty {
                skip(route, "a route with neither Location points nor a FileReference path")
            }
            for path in paths where named.insert(path).inserted {
                routes.append(RouteReference(path: path, draft: draft, line: route.line))
            }
        }
        return events
    }

    /// A `ClinicalRecord` (`HKClinicalTypeIdentifier…`, dated by `receivedDate`, every other
    /// attribute in metadata), waiting for its FHIR resource.
    private func mapClinicalRecord(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> ClinicalReference? {
        guard let type = element["type"], SampleKind(typeIdentifier: type) != nil else {
            skip(element, "type '\(element["type"] ?? "")' is not a HealthKit type identifier")
            return nil
        }
        var dated = element
        if dated["startDate"] == nil, let received = element["receivedDate"] { dated.attributes.append(ExportAttribute(name: "startDate", value: received)) }
        guard var draft = draft(dated, type: type, skip) else { return nil }
        keepAttributes(element, except: ["receivedDate"], in: &draft)
        return ClinicalReference(path: element["resourceFilePath"] ?? "", draft: draft, line: element.line)
    }

    /// The clinical record of `reference`, with its FHIR resource's text when it was read.
    func clinicalEvent(_ reference: ClinicalReference, resource: String?) -> (event: Event?, problem: String?) {
        var draft = reference.draft
        if let resource { draft.addMetadata(Self.fhirResourceKey, json: JSONText.string(resource)) }
        return event(draft, line: reference.line)
    }

    /// An `Audiogram` (`HKDataTypeIdentifierAudiogram`), its `SensitivityPoint`s kept in
    /// metadata like any child.
    private func mapAudiogram(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> Event? {
        let type = element["type"].flatMap { SampleKind(typeIdentifier: $0) != nil ? $0 : nil } ?? "HKDataTypeIdentifierAudiogram"
        guard var draft = draft(element, type: type, skip) else { return nil }
        keepAttributes(element, except: [], in: &draft)
        return finish(draft, element, isMember: false, skip)
    }

    /// A `VisionPrescription` (`HKVisionPrescriptionTypeIdentifier`, dated by `dateIssued`),
    /// its `type` (glasses, contacts), other attributes and children kept in metadata.
    private func mapVisionPrescription(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> Event? {
        guard let issued = element["dateIssued"], let date = ExportDateFormat.instant(issued) ?? ExportDateFormat.day(issued) else {
            skip(element, "dateIssued '\(element["dateIssued"] ?? "")' is missing or not a date")
            return nil
        }
        var dated = element
        dated.attributes.removeAll { $0.name == "startDate" || $0.name == "endDate" }
        let startText = ExportDateFormat.instant(issued) != nil ? issued : date.iso.prefix(10) + " 00:00:00 +0000"
        dated.attributes.append(ExportAttribute(name: "startDate", value: startText))
        guard var draft = self.draft(dated, type: "HKVisionPrescriptionTypeIdentifier", skip) else { return nil }
        if let kind = element["type"] { draft.addMetadata(SampleDraft.keyPrefix + "type", json: JSONText.string(kind)) }
        keepAttributes(element, except: ["dateIssued"], in: &draft)
        return finish(draft, element, isMember: false, skip)
    }

    /// The route sample of `reference` with the points read from its file.
    func routeEvent(_ reference: RouteReference, points: RoutePoints) -> (event: Event?, problem: String?) {
        var draft = reference.draft
        draft.locations = points.array
        return event(draft, line: reference.line)
    }

    /// Part `index` of the route of `reference`, stored in parts, with the part's points.
    func routePartEvent(_ reference: RouteReference, points: RoutePoints, index: Int, series: SampleUUID?) -> (event: Event?, problem: String?) {
        var draft = reference.draft
        draft.locations = points.array
        return seriesPartEvent(draft, index: index, series: series, line: reference.line)
    }

    /// The event of a sample read from a file beside the document (a route's points, an
    /// electrocardiogram), validated like any other, with the import marker; or why not.
    func event(_ draft: SampleDraft, line: Int = 0) -> (event: Event?, problem: String?) {
        event(draft, line: line, uuid: nil)
    }

    /// ``event(_:line:)`` under `uuid` when given.
    private func event(_ draft: SampleDraft, line: Int, uuid: SampleUUID?) -> (event: Event?, problem: String?) {
        var problem: String?
        let element = ExportElement(name: draft.type, attributes: [], line: line)
        let event = finish(draft, element, isMember: false, uuid: uuid) { _, reason in problem = problem ?? reason }
        return (event, problem)
    }

    /// The event of part `index` of a series stored in parts (``SeriesParts``): `draft`
    /// holds the series' fields and the part's points or voltages; the part key is added,
    /// and after the head the series' UUID (`series`, the head's), which also gives the
    /// part its UUID.
    func seriesPartEvent(_ draft: SampleDraft, index: Int, series: SampleUUID?, line: Int = 0) -> (event: Event?, problem: String?) {
        var problem: String?
        let element = ExportElement(name: draft.type, attributes: [], line: line)
        let event = seriesPart(draft, index: index, series: series, element) { _, reason in problem = problem ?? reason }
        return (event, problem)
    }

    /// ``seriesPartEvent(_:index:series:line:)`` of a part mapped from `element`, its
    /// problems given to `skip`.
    private func seriesPart(
        _ draft: SampleDraft, index: Int, series: SampleUUID?, _ element: ExportElement, _ skip: (ExportElement, String) -> Void
    ) -> Event? {
        var part = draft
        part.addMetadata(SeriesParts.partKey, json: String(index))
        guard index > 0 else { return finish(part, element, isMember: false, skip) }
        guard let series else {
            skip(element, "part \(index + 1) of a series without its first part")
            return nil
        }
        part.addMetadata(SeriesParts.seriesKey, json: JSONText.string(series.description))
        var event = finish(part, element, isMember: false, uuid: SeriesParts.partUUID(series: series, index: index), skip)
        event?.continuesSeries = true
        return event
    }

    private func mapActivitySummary(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> Event? {
        guard let text = element["dateComponents"], let day = ExportDateFormat.day(text) else {
            skip(element, "dateComponents '\(element["dateComponents"] ?? "")' is missing or not a date")
            return nil
        }
        var draft = SampleDraft(type: "HKActivitySummaryTypeIdentifier", start: day, end: day)
        for attribute in element.attributes {
            draft.addMetadata(attribute.name, json: Self.number(attribute.value) ?? JSONText.string(attribute.value))
        }
        return finish(draft, element, isMember: false, skip)
    }

    private func mapMe(_ element: ExportElement, _ skip: (ExportElement, String) -> Void) -> [Event] {
        guard let exportDate else {
            skip(element, "no ExportDate before Me to date the characteristics")
            return []
        }
        var events: [Event] = []
        for attribute in element.attributes {
            guard SampleKind(typeIdentifier: attribute.name) == .characteristic else {
                skip(element, "attribute '\(attribute.name)' is not a characteristic type identifier")
                continue
            }
            var draft = SampleDraft(type: attribute.name, start: exportDate, end: exportDate)
            draft.value = JSONText.string(attribute.value)
            // A characteristic's identity is its value, not the export that carried it, so a
            // later export adds it again only when it changed: hash without the dates.
            var identity = draft
            identity.start = ExportInstant(iso: exportDate.iso, instant: Timestamp(microseconds: 0))
            identity.end = identity.start
            let uuid = identity.contentUUID(workspace)
            let state = workspace.usedUUIDs?.state(of: uuid) ?? .unknown
            if let inStore = InStore(state) {
                events.append(Event(type: attribute.name, uuid: uuid, line: [], isCorrelationMember: false, inStore: inStore))
                continue
            }
            let line = draft.render(uuid: uuid, marker: marker) + [0x0A]
            events.append(Event(type: attribute.name, uuid: uuid, line: line, isCorrelationMember: false, checkedUnused: state == .unused))
        }
        return events
    }

    /// `text` as a JSON number: verbatim when it already is one, else re-spelled from its
    /// value (`.5` → `0.5`); `nil` when it is not a finite number.
    static func number(_ text: String) -> String? {
        if JSONText.isNumber(text) { return text }
        guard let value = Double(text), value.isFinite else { return nil }
        let spelled = String(value)
        return JSONText.isNumber(spelled) ? spelled : nil
    }

    /// The device text without the `<<HKDevice: 0x…>` memory address, which changes from
    /// record to record and from export to export and means nothing outside the exporting
    /// process: `<<HKDevice: 0x3012772a0>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`.
    ///
    /// The first `>` byte is found in the UTF-8 bytes when ASCII bytes stand on both sides of
    /// it: then no grapheme cluster joins it to its neighbours, so it is the first `>`
    /// character the slower search by `Character` finds, which any other text still gets.
    static func stableDevice(_ text: String) -> String {
        guard text.hasPrefix("<<HKDevice: 0x") else { return text }
        let bytes = text.utf8
        if let close = bytes.firstIndex(of: 0x3E) {
            let after = bytes.index(after: close)
            if bytes[bytes.index(before: close)] < 0x80, after == bytes.endIndex || bytes[after] < 0x80 {
                return "<<HKDevice" + text[close...]
            }
        }
        guard let close = text.firstIndex(of: ">") else { return text }
        return "<<HKDevice" + text[close...]
    }

    /// ``stableDevice(_:)`` of `text`, which is `last` itself when its bytes are `last`'s
    /// (a run of records names one device, each with another address): no new `String`.
    static func stableDevice(_ text: String, last: String?) -> String {
        guard var last, text.hasPrefix("<<HKDevice: 0x") else { return stableDevice(text) }
        var text = text
        let same = text.withUTF8 { t in
            last.withUTF8 { l in
                // Where the fast path of stableDevice(_:) cuts, and whether it would: then its
                // result is "<<HKDevice" and the bytes from the first ">" on.
                guard let close = t.firstIndex(of: 0x3E), t[close - 1] < 0x80, close + 1 == t.count || t[close + 1] < 0x80 else { return false }
                let suffix = t.count - close
                return l.count == 10 + suffix && memcmp(l.baseAddress!, t.baseAddress!, 10) == 0
                    && memcmp(l.baseAddress! + 10, t.baseAddress! + close, suffix) == 0
            }
        }
        return same ? last : stableDevice(text)
    }

    /// A child element as a JSON object: its attributes (sorted by name, values as
    /// strings), its `MetadataEntry` children as `metadata`, other children grouped by
    /// name in arrays, and a `Location` count when it had route points.
    static func json(_ element: ExportElement) -> String {
        var out: [UInt8] = []
        json(element, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``json(_:)`` of `element` to `out`, written as bytes.
    static func json(_ element: ExportElement, into out: inout [UInt8]) {
        func raw(_ text: StaticString) {
            out.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        out.append(0x7B)
        var parts = 0
        func separate() {
            if parts > 0 { out.append(0x2C) }
            parts += 1
        }
        for attribute in element.attributes.sorted(by: { $0.name < $1.name }) {
            separate()
            JSONBytes.appendString(attribute.name, to: &out)
            out.append(0x3A)
            JSONBytes.appendString(attribute.value, to: &out)
        }
        let entries = element.children(named: "MetadataEntry")
        if !entries.isEmpty {
            separate()
            raw("\"metadata\":{")
            for (k, entry) in entries.enumerated() {
                if k > 0 { out.append(0x2C) }
                JSONBytes.appendString(entry["key"] ?? "", to: &out)
                out.append(0x3A)
                JSONBytes.appendString(entry["value"] ?? "", to: &out)
            }
            out.append(0x7D)
        }
        var grouped: [String: [Int]] = [:]
        for (index, child) in element.children.enumerated() where child.name != "MetadataEntry" { grouped[child.name, default: []].append(index) }
        for name in grouped.keys.sorted() {
            separate()
            JSONBytes.appendString(name, to: &out)
            raw(":[")
            for (k, index) in grouped[name]!.enumerated() {
                if k > 0 { out.append(0x2C) }
                json(element.children[index], into: &out)
            }
            out.append(0x5D)
        }
        if element.locationCount > 0 {
            separate()
            raw("\"Location\":")
            JSONBytes.appendInteger(Int64(element.locationCount), to: &out)
        }
        out.append(0x7D)
    }
}

extension [UInt8] {
    /// Runs `body` to append an item of a JSON array being written, after a comma unless
    /// the array holds only its opening bracket.
    fileprivate mutating func withSeparator(_ body: (inout [UInt8]) -> Void) {
        if count > 1 { append(0x2C) }
        body(&self)
    }
}
