#if !canImport(Darwin)
internal import HealthLog

/// A sample type with a predicate, as HealthKit's `HKQueryDescriptor`.
public final class HKQueryDescriptor: NSObject, @unchecked Sendable {
    /// The type.
    public let sampleType: HKSampleType
    /// The predicate; `nil` for every sample of the type.
    public let predicate: NSPredicate?

    /// A descriptor.
    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
    }
}

/// What a query over several types asks of the store.
struct StoreSelection {
    /// The types.
    var types: Set<SampleType>
    /// The predicate they share.
    var predicate: QueryPredicate

    /// One type and its predicate.
    init(type: HKObjectType?, predicate: NSPredicate?) throws {
        types = type.map { [SampleType($0.identifier) ?? .quantity($0.identifier)] } ?? []
        self.predicate = try PredicateTranslation.translate(predicate)
    }

    /// Several types, whose predicates must be the same (the store's queries take one
    /// predicate for all their types).
    ///
    /// - Throws: ``HKError/Code/errorInvalidArgument`` for no descriptors, a type given
    ///   twice, or predicates that differ.
    init(_ parts: [(type: HKSampleType, predicate: NSPredicate?)]) throws {
        guard !parts.isEmpty else { throw HKError(.errorInvalidArgument, "a query needs at least one type") }
        let types = parts.map { SampleType($0.type.identifier) ?? .quantity($0.type.identifier) }
        guard Set(types).count == types.count else { throw HKError(.errorInvalidArgument, "a query names a type twice") }
        let predicates = try parts.map { try PredicateTranslation.translate($0.predicate) }
        guard Set(predicates).count == 1 else {
            throw HKError(.errorInvalidArgument, "healthlog runs one predicate for all a query's types; give each descriptor the same predicate")
        }
        self.types = Set(types)
        predicate = predicates[0]
    }
}
#endif
