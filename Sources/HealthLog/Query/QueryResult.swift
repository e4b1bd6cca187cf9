/// What an anchored query returns: the samples and deleted objects after the anchor, each
/// array in sequence order, and the anchor to pass next time. HealthKit's
/// `HKAnchoredObjectQueryDescriptor.Result`.
public struct QueryResult: Sendable {
    /// The samples added after the anchor (and still live, in HealthKit's view).
    public var addedSamples: [any Sample]
    /// The deleted objects recorded after the anchor.
    public var deletedObjects: [DeletedObject]
    /// The anchor of the last item delivered, or the query's anchor when none was.
    public var newAnchor: QueryAnchor
    /// Where each series head collected so far is in ``addedSamples``, by its UUID, so its
    /// later parts join it.
    private var heads: [SampleUUID: Int] = [:]
    /// For each series whose head's delete was collected, the UUID of the next part whose
    /// delete joins it (the series' UUID and that part's index), so a series deleted whole
    /// is one deleted object.
    private var deletedParts: [SampleUUID: (series: SampleUUID, index: Int)] = [:]

    /// A result (for tests and for clients that assemble their own).
    public init(addedSamples: [any Sample] = [], deletedObjects: [DeletedObject] = [], newAnchor: QueryAnchor) {
        self.addedSamples = addedSamples
        self.deletedObjects = deletedObjects
        self.newAnchor = newAnchor
    }

    /// Adds the item a replayed line records; `location` names the store for a damage report.
    /// The deletes of a series' later parts that follow its head's (as a delete of the
    /// head writes them) join the head's deleted object. `memo` keeps the values of the
    /// lines collected before, for the next ones that repeat them. Lines of the common
    /// shapes are decoded by ``StoredLineDecoder``, the others through an ``EventRecord``.
    mutating func collect(_ line: ReplayedLine, memo: inout RecordMemo, location: @autoclosure () -> String) throws {
        let item: StoredLineDecoder.Item
        // Matched as a temporary, so the sample moves into the array rather than being copied.
        switch StoredLineDecoder.item(line.body, memo: &memo) {
        case .added(let sample)?:
            // The decoder reads no series type's adds, so its samples are whole.
            addedSamples.append(sample)
            return
        case .deleted(let object)?:
            item = .deleted(object)
        case nil:
            let record = try EventRecord(line: line.body, seq: line.seq, memo: &memo, location: location())
            item = record.isDelete ? .deleted(SampleDecoder.deletedObject(record)) : .added(SampleDecoder.sample(record))
        }
        switch item {
        case .deleted(let object):
            var place = (series: object.uuid, index: 0)
            if SeriesParts.isSeries(object.sampleType) {
                place = deletedParts.removeValue(forKey: object.uuid) ?? place
                deletedParts[SeriesParts.partUUID(series: place.series, index: place.index + 1)] = (place.series, place.index + 1)
            }
            if place.index == 0 { deletedObjects.append(object) }
        case .added(let sample):
            collect(sample)
        }
    }

    /// Adds a sample, joining a series' parts (``SeriesParts``) into the sample of its head:
    /// the head without its part key, then each later part's points (or voltages) after
    /// its own. A part whose head this result does not hold (a limit cut the series, or its
    /// head was deleted alone) is kept as a sample of its own, its part keys intact.
    private mutating func collect(_ sample: any Sample) {
        guard SeriesParts.isSeries(sample.sampleType), let place = SeriesParts.place(in: sample.metadata) else {
            addedSamples.append(sample)
            return
        }
        guard let series = place.series else {
            heads[sample.uuid] = addedSamples.count
            addedSamples.append(Self.withoutPartKeys(sample))
            return
        }
        guard let at = heads[series] else {
            addedSamples.append(sample)
            return
        }
        // The head is taken out of the array while it grows, so its points are not copied.
        if var route = addedSamples[at] as? WorkoutRouteSample, let part = sample as? WorkoutRouteSample {
            addedSamples[at] = part
            route.locations += part.locations
            addedSamples[at] = route
        } else if var ecg = addedSamples[at] as? ElectrocardiogramSample, let part = sample as? ElectrocardiogramSample {
            addedSamples[at] = part
            ecg.voltages += part.voltages
            addedSamples[at] = ecg
        } else {
            addedSamples.append(sample)
        }
    }

    /// A series head as the whole series' sample: its metadata without ``SeriesParts/partKey``.
    private static func withoutPartKeys(_ sample: any Sample) -> any Sample {
        if var route = sample as? WorkoutRouteSample {
            route.fields.metadata[SeriesParts.partKey] = nil
            return route
        }
        if var ecg = sample as? ElectrocardiogramSample {
            ecg.fields.metadata[SeriesParts.partKey] = nil
            return ecg
        }
        return sample
    }
}
