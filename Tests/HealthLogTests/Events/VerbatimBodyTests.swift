import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An add line already in the stored form from its `uuid` on is completed from its own
/// bytes (``LineEncoder/verbatimBody(_:line:)``) instead of re-encoded field by field: the
/// stored line must be the one the encoder makes, for lines that take that path and for
/// lines one blank, one field out of order or one extra field away from it.
@Suite("Add lines stored from their own bytes")
struct VerbatimBodyTests {
    static let uuid = "8372AFED-5A23-4BC2-B05C-93BC2983C8A4"
    static let heartRate = #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","source":"Apple Watch","sourceVersion":"7.0","device":"<<HKDevice>, name:Apple Watch>","metadata":{"HKMetadataKeyHeartRateMotionContext":1}}"#

    /// Lines in the stored order from `uuid` on: each takes the verbatim path.
    static let storedOrder = [
        heartRate,
        #"{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00.5+01:00","end":"2024-03-01T08:10:00.5+01:00","value":12,"unit":"count"}"#,
        #"{"op":"add","uuid":"\#(uuid.lowercased())","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T22:00:00Z","end":"2024-03-02T06:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore","source":"W\u00e4tch \"2\""}"#,
        #"{"seq":9,"op":"add","uuid":"\#(uuid)","type":"HKWorkoutTypeIdentifier","start":"2024-03-01T09:00:00+01:00","end":"2024-03-01T09:30:00+01:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"totals":{"energy":{"value":250,"unit":"kcal"}}}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierBodyMass","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:00:00Z","value":72.50,"unit":"kg","metadata":{"HKMetadataKeySyncIdentifier":"w-1","HKMetadataKeySyncVersion":2}}"#,
    ]

    /// Lines near the stored form that must take the field-by-field path (the first has no
    /// `end`, which its stored line gets).
    static let otherShapes = [
        #"{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00.5+01:00","value":12,"unit":"count"}"#,
        #"{"op":"add","uuid":"\#(uuid)", "type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value": 75,"unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"} "#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","value":75,"start":"2019-09-01T00:03:06Z","unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","seq":3,"value":75,"unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","seq":3}"#,
        #"{"uuid":"\#(uuid)","op":"add","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
        #"{"type":"HKQuantityTypeIdentifierHeartRate","uuid":"\#(uuid)","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
        #"{"op":"add","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
        #"{"op":"add","uuid":"\#(uuid)","type":"HKCorrelationTypeIdentifierBloodPressure","start":"2024-03-01T08:00:00Z","objects":["0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10"]}"#,
    ]

    /// The UUID a line without one is given.
    static let fixedUUID = SampleUUID(high: 0x0D4A_1F9C_5E3B_4C61, low: 0x9B57_2A1E_4F8C_7D10)

    /// The stored line the encoder makes of `line` (whole, as a one-line append would),
    /// and the one the preparer's output completes, for each add of `lines` as one chunk;
    /// and how many took the verbatim path.
    static func storedLines(_ lines: [String]) throws -> (whole: [[UInt8]], prepared: [[UInt8]], verbatim: Int) {
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        let prepared = LinePreparer.prepare(LineChunk(storage: .bytes(input), range: 0..<input.count), into: PreparedChunk(checker: InputChecker(importing: false)))
        #expect(prepared.failure == nil)
        var whole: [[UInt8]] = []
        var completed: [[UInt8]] = []
        var index = 0
        var checker = InputChecker(importing: false)
        try input.withUnsafeBytes { raw in
            var failure: (any Error)?
            LineChunk.forEachLine(raw) { line, _ in
                do {
                    var event = try EventLineParser.parse(line)
                    var bytes = Array(line)
                    if let rewritten = try checker.check(event, line: line).rewritten {
                        bytes = rewritten
                        event = try rewritten.withUnsafeBytes { try EventLineParser.parse($0) }
                    }
                    var stored: [UInt8] = []
                    bytes.withUnsafeBytes { LineEncoder.appendAdd(event, uuid: event.uuid ?? fixedUUID, seq: 7, line: $0, to: &stored) }
                    whole.append(stored)
                    let mine = prepared.events[index]
                    let source = mine.isRewritten ? prepared.rewritten : input
                    var again: [UInt8] = []
                    prepared.encoded.withUnsafeBytes { encoded in
                        source.withUnsafeBytes { all in
                            let own = UnsafeRawBufferPointer(rebasing: all[mine.line])
                            LineEncoder.appendAdd(
                                seq: 7, uuid: event.uuid == nil ? fixedUUID : nil, prepared: UnsafeRawBufferPointer(rebasing: encoded[mine.encoded]),
                                verbatim: mine.verbatim.map { UnsafeRawBufferPointer(rebasing: own[$0]) }, to: &again)
                        }
                    }
                    completed.append(again)
                    index += 1
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
        }
        return (whole, completed, prepared.events.filter { $0.verbatim != nil }.count)
    }

    @Test("Lines in the stored order are completed from their own bytes, to the encoder's stored line")
    func storedOrderTakesTheVerbatimPath() throws {
        for line in Self.storedOrder {
            let stored = try Self.storedLines([line])
            #expect(stored.prepared == stored.whole)
            #expect(stored.verbatim == 1, "\(line)")
        }
    }

    @Test("A blank, a field out of order, an extra field, no UUID, a short type or members are encoded field by field, to the same stored line")
    func otherShapesAreEncoded() throws {
        let stored = try Self.storedLines(Self.otherShapes)
        #expect(stored.prepared == stored.whole)
        #expect(stored.verbatim == 0)
    }

    @Test("Random field orders and blanks store what the encoder makes of them", arguments: [1, 2, 3] as [UInt64])
    func randomShapes(_ seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let fields = [
            #""uuid":"\#(Self.uuid)""#, #""type":"HKQuantityTypeIdentifierHeartRate""#, #""start":"2019-09-01T00:03:06Z""#,
            #""end":"2019-09-01T00:03:07Z""#, #""value":75"#, #""unit":"count/min""#, #""source":"Apple Watch""#,
            #""sourceVersion":"7.0""#, #""device":"<<HKDevice>>""#, #""metadata":{"HKMetadataKeyHeartRateMotionContext":1}"#,
        ]
        var lines: [String] = []
        for _ in 0..<300 {
            var chosen = fields.filter { $0.hasPrefix(#""uuid""#) || $0.hasPrefix(#""type""#) || $0.hasPrefix(#""start""#) || $0.hasPrefix(#""value""#) || $0.hasPrefix(#""unit""#) || random.chance(60) }
            if random.chance(30) { chosen.swapAt(random.int(0...chosen.count - 1), random.int(0...chosen.count - 1)) }
            if random.chance(20) { chosen.insert(#""seq":1"#, at: random.int(0...chosen.count)) }
            if random.chance(50) { chosen.insert(#""op":"add""#, at: random.chance(80) ? 0 : random.int(0...chosen.count)) }
            let separator = random.chance(10) ? ", " : ","
            lines.append("{" + chosen.joined(separator: separator) + (random.chance(10) ? "} " : "}"))
        }
        let stored = try Self.storedLines(lines)
        #expect(stored.prepared == stored.whole)
        #expect(stored.verbatim > 0 && stored.verbatim < lines.count)
    }
}
