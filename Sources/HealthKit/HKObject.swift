#if !canImport(Darwin)
internal import HealthLog

/// A piece of health data, as HealthKit's `HKObject`: immutable, equal when the UUIDs are.
/// Its properties are read from the fields the store keeps when asked for.
public class HKObject: NSObject, @unchecked Sendable {
    /// The fields as healthlog stores them (for an object read from the store; built for a
    /// new one).
    let fields: SampleFields

    init(fields: SampleFields) {
        self.fields = fields
    }

    /// The object's UUID.
    public var uuid: UUID { fields.uuid.foundation }
    /// Its metadata: `String`s and `NSNumber`s (numbers and booleans) by key; `nil` when it has none.
    public var metadata: [String: Any]? { fields.metadata.isEmpty ? nil : MetadataConversion.values(fields.metadata) }
    /// The device that recorded it.
    public var device: HKDevice? { fields.device.map(HKDevice.init(text:)) }
    /// The source that recorded it, at its version.
    public var sourceRevision: HKSourceRevision {
        HKSourceRevision(source: HKSource(name: fields.source ?? ""), version: fields.sourceVersion)
    }

    /// Equal objects hash alike.
    public override var hash: Int { fields.uuid.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKObject)?.fields.uuid == fields.uuid }
}

extension SampleUUID {
    /// The UUID as Foundation's.
    var foundation: UUID {
        let (h, l) = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: (h, l)) { raw in UUID(uuid: raw.load(as: uuid_t.self)) }
    }

    /// Foundation's UUID as healthlog's.
    init(_ uuid: UUID) {
        let (high, low) = withUnsafeBytes(of: uuid.uuid) { raw in (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self)) }
        self.init(high: UInt64(bigEndian: high), low: UInt64(bigEndian: low))
    }
}

/// A sample: an object with a type and a time span, as HealthKit's `HKSample`.
public class HKSample: HKObject, @unchecked Sendable {
    /// The sample's type.
    public let sampleType: HKSampleType
    /// When it starts.
    public let startDate: Date
    /// When it ends.
    public let endDate: Date

    init(type: HKSampleType, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        sampleType = type
        startDate = start
        endDate = end
        super.init(
            fields: SampleFields(
                start: start.timestamp, end: end.timestamp, source: HKSource.default().name, device: device?.text,
                metadata: MetadataConversion.stored(metadata)))
    }

    init(type: HKSampleType, fields: SampleFields) {
        sampleType = type
        startDate = Date(fields.start)
        endDate = Date(fields.end)
        super.init(fields: fields)
    }

    /// Whether the sample's end is unknown: never for a stored sample.
    public var hasUndeterminedDuration: Bool { false }

    /// The sample as healthlog stores it (`nil` for kinds the layer does not save).
    var stored: (any HealthLog.Sample)? { nil }

    /// A description, for logs.
    public override var description: String { "\(sampleType.identifier) \(uuid) \(startDate) - \(endDate)" }
}

/// A quantity sample, as HealthKit's `HKQuantitySample`.
public class HKQuantitySample: HKSample, @unchecked Sendable {
    /// The sample's quantity.
    public let quantity: HKQuantity
    /// How many values the quantity stands for (1: healthlog stores no series).
    public var count: Int { 1 }
    /// The sample's type.
    public var quantityType: HKQuantityType { sampleType as! HKQuantityType }

    /// A new sample.
    public init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        self.quantity = quantity
        super.init(type: type, start: start, end: end, device: device, metadata: metadata)
    }

    /// A new sample.
    public convenience init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, metadata: [String: Any]?) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: metadata)
    }

    /// A new sample.
    public convenience init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: nil)
    }

    init(_ sample: QuantitySample) {
        quantity = HKQuantity(unit: HKUnit(from: sample.quantity.unit), doubleValue: sample.quantity.value)
        super.init(type: HKQuantityType(HKQuantityTypeIdentifier(rawValue: sample.sampleType.identifier)), fields: sample.fields)
    }

    override var stored: (any HealthLog.Sample)? { QuantitySample(type: sampleType.sampleType, quantity: quantity.stored, fields: fields) }
}

/// A category sample, as HealthKit's `HKCategorySample`.
public class HKCategorySample: HKSample, @unchecked Sendable {
    /// The value: one of the type's `HKCategoryValue…` integers.
    public let value: Int
    /// The sample's type.
    public var categoryType: HKCategoryType { sampleType as! HKCategoryType }

    /// A new sample.
    public init(type: HKCategoryType, value: Int, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        self.value = value
        super.init(type: type, start: start, end: end, device: device, metadata: metadata)
    }

    /// A new sample.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date, metadata: [String: Any]?) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: metadata)
    }

    /// A new sample.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: nil)
    }

    init(_ sample: CategorySample) {
        value = sample.value.integerValue ?? 0
        super.init(type: HKCategoryType(HKCategoryTypeIdentifier(rawValue: sample.sampleType.identifier)), fields: sample.fields)
    }

    override var stored: (any HealthLog.Sample)? { CategorySample(type: sampleType.sampleType, value: .integer(value), fields: fields) }
}
#endif
