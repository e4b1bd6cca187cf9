import Foundation
import Synchronization
import HealthLogTestSupport
import Testing
@testable import HealthLog

// Helpers shared by the conformance suites (the anchor rules, the HealthKit checklist, and
// the predicate tests): stores with tiny batches, sample builders, replayed lines with
// their sequence numbers, and a seeded random generator.

let hrType = SampleType.quantity("HeartRate")
let stepType = SampleType.quantity("StepCount")
let sleepType = SampleType.category("SleepAnalysis")
let syncIDKey = "HKMetadataKeySyncIdentifier"
let syncVersionKey = "HKMetadataKeySyncVersion"

/// A store in a fresh temporary directory, with batches and segments small enough that a
/// few dozen events span several batches (and so several groups per type) and segments.
struct ConformanceStore {
    let dir: TemporaryDirectory
    let store: HealthStore

    init(batchBytes: Int = 700, segmentBytes: Int = 4_000) throws {
        dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = batchBytes
        options.segmentBytes = segmentBytes
        store = HealthStore(directory: dir.file("store"), options: options)
    }

    func remove() { dir.remove() }
}

/// The instant `text` (ISO 8601), which must parse.
func instant(_ text: String) -> Timestamp {
    guard let t = Timestamp(iso8601: text) else { preconditionFailure("bad test instant \(text)") }
    return t
}

/// `base` shifted by `seconds`, printed in UTC with milliseconds.
func shifted(_ base: Timestamp, seconds: Double) -> Timestamp {
    Timestamp(microseconds: base.microseconds + Int64(seconds * 1_000_000), offsetMinutes: 0, isZulu: true, fractionDigits: 3)
}

/// A heart-rate (or other quantity) sample.
func quantitySample(
    _ value: Double, type: SampleType = hrType, unit: String = "count/min", start: Timestamp, end: Timestamp? = nil,
    source: String? = nil, device: String? = nil, metadata: [String: MetadataValue] = [:], uuid: SampleUUID = .random()
) -> QuantitySample {
    QuantitySample(
        type: type, quantity: Quantity(value, unit),
        fields: SampleFields(uuid: uuid, start: start, end: end, source: source, device: device, metadata: metadata))
}

/// A sleep-analysis (or other category) sample.
func categorySample(
    _ value: CategoryValue, type: SampleType = sleepType, start: Timestamp, end: Timestamp? = nil, source: String? = nil,
    device: String? = nil, metadata: [String: MetadataValue] = [:], uuid: SampleUUID = .random()
) -> CategorySample {
    CategorySample(type: type, value: value, fields: SampleFields(uuid: uuid, start: start, end: end, source: source, device: device, metadata: metadata))
}

/// One line an anchored query delivered, with the fields tests look at.
struct ReplayedLine: Equatable {
    var seq: UInt64
    var isDelete: Bool
    var uuid: String
    var type: String
    /// The line as delivered, newline included.
    var text: String
}

/// Decodes a delivered line.
func replayedLine(_ raw: UnsafeRawBufferPointer) throws -> ReplayedLine {
    let text = String(decoding: raw, as: UTF8.self)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any], "not a JSON object: \(text)")
    let seq = try #require((object["seq"] as? NSNumber)?.uint64Value, "no seq in \(text)")
    return ReplayedLine(
        seq: seq, isDelete: (object["op"] as? String) == "delete", uuid: (object["uuid"] as? String) ?? "",
        type: (object["type"] as? String) ?? "", text: text)
}

/// Runs `request` through ``HealthStore/replay(_:deliver:)`` and decodes what it delivered.
func replayLines(_ store: HealthStore, _ request: ReplayRequest) throws -> (lines: [ReplayedLine], outcome: ReplayOutcome) {
    var lines: [ReplayedLine] = []
    let outcome = try store.replay(request) { lines.append(try replayedLine($0)) }
    return (lines, outcome)
}

/// `result`'s items as "+UUID" (sample) and "-UUID" (deleted object), samples first.
func itemKeys(_ result: QueryResult) -> [String] {
    result.addedSamples.map { "+\($0.uuid)" } + result.deletedObjects.map { "-\($0.uuid)" }
}

/// The same, from delivered lines, in the same shape (samples first, each in line order).
func itemKeys(_ lines: [ReplayedLine]) -> [String] {
    lines.filter { !$0.isDelete }.map { "+\($0.uuid)" } + lines.filter(\.isDelete).map { "-\($0.uuid)" }
}

/// Expects `body` to throw a ``HealthLogError`` with `code`; returns it.
@discardableResult
func expectHealthLogError<T>(
    _ code: HealthLogError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> HealthLogError? {
    do {
        _ = try body()
        Issue.record("expected a \(code) error, got success", sourceLocation: sourceLocation)
        return nil
    } catch let error as HealthLogError {
        #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a HealthLogError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// What a long-running query's handlers received, from any thread; a test waits for
/// deliveries with ``wait(until:)``, woken by each call rather than polling.
final class HandlerLog: Sendable {
    /// One call of a results or update handler.
    struct Call: Sendable {
        /// Whether the results handler made it (else the update handler).
        var isResultsHandler: Bool
        /// The samples it delivered.
        var samples: [any Sample]?
        /// The deleted objects it delivered.
        var deleted: [DeletedObject]?
        /// The anchor it delivered.
        var anchor: QueryAnchor?
        /// The error it delivered.
        var error: (any Error)?
    }

    /// The calls so far, in the order they were made.
    private let calls = WatchedValue<[Call]>([])

    /// Records a call, waking the waits it satisfies.
    func record(_ call: Call) { calls.update { $0.append(call) } }
    /// The calls so far.
    var all: [Call] { calls.value }

    /// The items delivered so far, as "+UUID"/"-UUID" in delivery order, samples before
    /// deleted objects within each call.
    var keys: [String] { Self.keys(all) }

    /// The items `calls` delivered, in the shape of ``keys``.
    static func keys(_ calls: [Call]) -> [String] {
        calls.flatMap { call in (call.samples ?? []).map { "+\($0.uuid)" } + (call.deleted ?? []).map { "-\($0.uuid)" } }
    }

    /// Waits (up to 60 s) until `condition` holds of the calls so far; returns whether it did.
    func wait(until condition: @escaping @Sendable ([Call]) -> Bool) async -> Bool {
        await calls.wait(until: condition)
    }
}

/// Runs `body` on a new thread (not the cooperative pool, which a blocking appender would
/// starve on a 2-core machine); ``finished()`` waits for it to return.
final class BackgroundJob: Sendable {
    /// Whether `body` has returned.
    private let done = WatchedValue(false)
    /// What `body` threw, described.
    private let failure = Mutex<String?>(nil)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { failure.withLock { $0 = "\(error)" } }
            done.update { $0 = true }
        }
        thread.start()
    }

    /// Waits (up to 60 s) for `body` to return; returns whether it did.
    func finished() async -> Bool { await done.wait { $0 } }
    /// What `body` threw, if it threw.
    var error: String? { failure.withLock { $0 } }
}
