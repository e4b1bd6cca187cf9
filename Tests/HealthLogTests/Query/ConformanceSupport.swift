import Foundation
import Synchronization
import HealthLogTestSupport
import Testing
@testable import HealthLog

// Helpers shared by the conformance suites (SPEC §3 rules, the HealthKit checklist, and
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

/// Polls `condition` every 10 ms for up to `seconds` (generous: CI machines are slow);
/// returns whether it became true.
func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// What a long-running query's handlers received, from any thread.
final class HandlerLog: Sendable {
    struct Call {
        var isResultsHandler: Bool
        var samples: [any Sample]?
        var deleted: [DeletedObject]?
        var anchor: QueryAnchor?
        var error: (any Error)?
    }

    private let calls = Mutex<[Call]>([])

    func record(_ call: Call) { calls.withLock { $0.append(call) } }
    var all: [Call] { calls.withLock { $0 } }

    /// The items delivered so far, as "+UUID"/"-UUID" in delivery order, samples before
    /// deleted objects within each call.
    var keys: [String] {
        all.flatMap { call in (call.samples ?? []).map { "+\($0.uuid)" } + (call.deleted ?? []).map { "-\($0.uuid)" } }
    }
}

/// Runs `body` on a new thread (not the cooperative pool, which a blocking appender would
/// starve on a 2-core machine); `done` becomes true when it returns.
final class BackgroundJob: Sendable {
    private let finished = Mutex(false)
    private let failure = Mutex<String?>(nil)

    init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { failure.withLock { $0 = "\(error)" } }
            finished.withLock { $0 = true }
        }
        thread.start()
    }

    var isDone: Bool { finished.withLock { $0 } }
    var error: String? { failure.withLock { $0 } }
}

/// A value shared between threads.
final class Locked<T: Sendable>: Sendable {
    private let storage: Mutex<T>
    init(_ value: T) { storage = Mutex(value) }
    var value: T { storage.withLock { $0 } }
    func set(_ value: T) { storage.withLock { $0 = value } }
    func update(_ body: (inout T) -> Void) { storage.withLock { body(&$0) } }
}
