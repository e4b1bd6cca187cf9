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
    /// A predicate every selected sample matches: the types' shared predicate, or when
    /// they differ, any of them (narrowed per type by ``perType``).
    var predicate: QueryPredicate
    /// Each type's own predicate when the types' predicates differ; `nil` when they share
    /// ``predicate``.
    var perType: [SampleType: QueryPredicate]?

    /// One type and its predicate.
    init(type: HKObjectType?, predicate: NSPredicate?) throws {
        types = type.map { [SampleType($0.identifier) ?? .quantity($0.identifier)] } ?? []
        self.predicate = try PredicateTranslation.translate(predicate)
    }

    /// Several types, each with its own predicate.
    ///
    /// - Throws: ``HKError/Code/errorInvalidArgument`` for no descriptors or a type given twice.
    init(_ parts: [(type: HKSampleType, predicate: NSPredicate?)]) throws {
        guard !parts.isEmpty else { throw HKError(.errorInvalidArgument, "a query needs at least one type") }
        let types = parts.map { SampleType($0.type.identifier) ?? .quantity($0.type.identifier) }
        guard Set(types).count == types.count else { throw HKError(.errorInvalidArgument, "a query names a type twice") }
        let predicates = try parts.map { try PredicateTranslation.translate($0.predicate) }
        self.types = Set(types)
        if Set(predicates).count == 1 {
            predicate = predicates[0]
        } else {
            predicate = .or(predicates)
            perType = Dictionary(uniqueKeysWithValues: zip(types, predicates))
        }
    }
}
#endif
