import Foundation
@testable import HealthKit
import HealthLog
import HealthLogTestSupport

/// A seeded generator, so a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A store of random samples: steps, heart rates and sleep from two sources over ten days,
/// saved in a few appends with some samples deleted between them.
struct RandomStore {
    let directory: TemporaryDirectory
    let store: HealthStore
    /// The anchor after each append, and the beginning.
    var anchors: [QueryAnchor] = [.beginning]
    static let sources = ["Apple Watch", "iPhone"]
    /// 2024-03-01T00:00Z.
    static let origin: Int64 = 1_709_251_200_000_000

    init(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        directory = try TemporaryDirectory()
        store = HealthStore(directory: directory.file("random.store"))
        var live: [SampleUUID] = []
        for _ in 0..<Int.random(in: 2...5, using: &random) {
            var samples: [any HealthLog.Sample] = []
            for _ in 0..<Int.random(in: 5...40, using: &random) {
                let start = Self.origin + Int64.random(in: 0..<(10 * 86_400), using: &random) * 1_000_000
                let end = start + Int64.random(in: 0...3_600, using: &random) * 1_000_000
                let fields = SampleFields(
                    uuid: .random(using: &random), start: Timestamp(microseconds: start), end: Timestamp(microseconds: end),
                    source: Self.sources.randomElement(using: &random)!, metadata: Bool.random(using: &random) ? ["HKWasUserEntered": 1] : [:])
                switch Int.random(in: 0..<3, using: &random) {
                case 0: samples.append(QuantitySample(type: SampleType("HKQuantityTypeIdentifierStepCount")!, quantity: Quantity(Double(Int.random(in: 1...500, using: &random)), "count"), fields: fields))
                case 1: samples.append(QuantitySample(type: SampleType("HKQuantityTypeIdentifierHeartRate")!, quantity: Quantity(Double(Int.random(in: 40...180, using: &random)), "count/min"), fields: fields))
                default: samples.append(CategorySample(type: SampleType("HKCategoryTypeIdentifierSleepAnalysis")!, value: .integer(Int.random(in: 0...5, using: &random)), fields: fields))
                }
            }
            anchors.append(try store.save(samples))
            live += samples.map(\.uuid)
            if Bool.random(using: &random), live.count > 4 {
                live.shuffle(using: &random)
                let gone = Array(live.prefix(Int.random(in: 1...3, using: &random)))
                live.removeFirst(gone.count)
                anchors.append(try store.delete(gone))
            }
        }
    }
}

/// A predicate built both ways: through `HKQuery.predicateFor…` and as the store's.
indirect enum PredicateSpec: CustomStringConvertible {
    case dates(startDay: Int, days: Int, options: HKQueryOptions)
    case source(String)
    case quantityAbove(Double, unit: String)
    case metadataKey(String)
    case and(PredicateSpec, PredicateSpec)
    case or(PredicateSpec, PredicateSpec)
    case not(PredicateSpec)

    static func random(depth: Int = 0, using generator: inout SeededGenerator) -> PredicateSpec {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 4), using: &generator) {
        case 0:
            let options: [HKQueryOptions] = [[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]]
            return .dates(startDay: Int.random(in: -1...9, using: &generator), days: Int.random(in: 1...4, using: &generator), options: options.randomElement(using: &generator)!)
        case 1: return .source(RandomStore.sources.randomElement(using: &generator)!)
        case 2: return Bool.random(using: &generator) ? .quantityAbove(Double(Int.random(in: 40...400, using: &generator)), unit: "count") : .quantityAbove(1.5, unit: "count/s")
        case 3: return .metadataKey("HKWasUserEntered")
        case 4: return .and(random(depth: depth + 1, using: &generator), random(depth: depth + 1, using: &generator))
        case 5: return .or(random(depth: depth + 1, using: &generator), random(depth: depth + 1, using: &generator))
        default: return .not(random(depth: depth + 1, using: &generator))
        }
    }

    private func date(_ day: Int) -> Date { Date(timeIntervalSince1970: Double(RandomStore.origin) / 1_000_000 + Double(day) * 86_400) }

    /// Through HealthKit's API.
    var nsPredicate: NSPredicate {
        switch self {
        case .dates(let day, let days, let options): HKQuery.predicateForSamples(withStart: date(day), end: date(day + days), options: options)
        case .source(let name): HKQuery.predicateForObjects(from: [HKSource(name: name)])
        case .quantityAbove(let value, let unit): HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: HKUnit(from: unit), doubleValue: value))
        case .metadataKey(let key): HKQuery.predicateForObjects(withMetadataKey: key)
        case .and(let a, let b): NSCompoundPredicate(andPredicateWithSubpredicates: [a.nsPredicate, b.nsPredicate])
        case .or(let a, let b): NSCompoundPredicate(orPredicateWithSubpredicates: [a.nsPredicate, b.nsPredicate])
        case .not(let a): NSCompoundPredicate(notPredicateWithSubpredicate: a.nsPredicate)
        }
    }

    /// As the store's predicate.
    var stored: QueryPredicate {
        func stamp(_ day: Int) -> Timestamp { Timestamp(microseconds: RandomStore.origin + Int64(day) * 86_400_000_000) }
        switch self {
        case .dates(let day, let days, let options):
            var dateOptions: DateOptions = []
            if options.contains(.strictStartDate) { dateOptions.insert(.strictStartDate) }
            if options.contains(.strictEndDate) { dateOptions.insert(.strictEndDate) }
            return .samples(withStart: stamp(day), end: stamp(day + days), options: dateOptions)
        case .source(let name): return .sources([name])
        case .quantityAbove(let value, let unit): return .quantity(.greaterThan, value, unit: try! HealthUnit(unit))
        case .metadataKey(let key): return .metadata(key: key)
        case .and(let a, let b): return .and([a.stored, b.stored])
        case .or(let a, let b): return .or([a.stored, b.stored])
        case .not(let a): return .not(a.stored)
        }
    }

    var description: String {
        switch self {
        case .dates(let day, let days, let options): "dates(\(day)+\(days), \(options.rawValue))"
        case .source(let name): "source(\(name))"
        case .quantityAbove(let value, let unit): "quantity>\(value) \(unit)"
        case .metadataKey(let key): "has(\(key))"
        case .and(let a, let b): "(\(a) AND \(b))"
        case .or(let a, let b): "(\(a) OR \(b))"
        case .not(let a): "NOT \(a)"
        }
    }
}
