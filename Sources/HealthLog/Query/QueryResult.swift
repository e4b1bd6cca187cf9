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

    /// A result (for tests and for clients that assemble their own).
    public init(addedSamples: [any Sample] = [], deletedObjects: [DeletedObject] = [], newAnchor: QueryAnchor) {
        self.addedSamples = addedSamples
        self.deletedObjects = deletedObjects
        self.newAnchor = newAnchor
    }

    /// Adds the item a replayed line records; `location` names the store for a damage report.
    mutating func collect(_ line: ReplayedLine, location: @autoclosure () -> String) throws {
        let record = try EventRecord(line: line.body, seq: line.seq, location: location())
        if record.isDelete {
            deletedObjects.append(SampleDecoder.deletedObject(record))
        } else {
            addedSamples.append(SampleDecoder.sample(record))
        }
    }
}
