import Testing
@testable import HealthLog

/// ``SampleFields`` keeps its source, source version, device and metadata in one object the
/// samples of a query share; it must still behave as a value with seven stored fields.
@Suite("Sample fields")
struct SampleFieldsTests {
    static let start = Timestamp(iso8601: "2024-03-01T08:00:00Z")!

    @Test("Setting a shared field changes only the copy it is set on")
    func copiesAreIndependent() {
        let shared = SampleFields.Shared(source: "Watch", sourceVersion: "10.1", device: "S9", metadata: ["note": .string("a")])
        let original = SampleFields(uuid: SampleUUID(high: 1, low: 2), start: Self.start, end: Self.start, shared: shared)
        var copy = original
        copy.source = "Phone"
        copy.sourceVersion = nil
        copy.device = "15"
        copy.metadata["note"] = .string("b")
        #expect(original.source == "Watch" && original.sourceVersion == "10.1" && original.device == "S9")
        #expect(original.metadata == ["note": .string("a")])
        #expect(copy.source == "Phone" && copy.sourceVersion == nil && copy.device == "15" && copy.metadata == ["note": .string("b")])
        #expect(shared.source == "Watch" && shared.metadata == ["note": .string("a")])
        #expect(original != copy)
    }

    @Test("Fields are equal and hash alike by what they hold, shared or not")
    func equalityIsByValue() {
        let a = SampleFields(uuid: SampleUUID(high: 1, low: 2), start: Self.start, source: "Watch", metadata: ["k": .number(1)])
        let b = SampleFields(uuid: SampleUUID(high: 1, low: 2), start: Self.start, source: "Watch", metadata: ["k": .number(1)])
        #expect(a.shared !== b.shared)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        var c = b
        c.device = "S9"
        #expect(a != c)
        c.device = nil
        #expect(a == c)
        let bare = SampleFields(uuid: SampleUUID(high: 1, low: 2), start: Self.start, source: "Watch")
        #expect(bare != a)
        #expect(bare.metadata.isEmpty && bare.end == Self.start)
    }

    @Test("Samples decoded from lines that end alike share one object, and stay values")
    func decodedSamplesShare() throws {
        var memo = RecordMemo()
        let lines = [
            #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","source":"Watch","device":"S9","metadata":{"HKMetadataKeyHeartRateMotionContext":1}}"#,
            #"{"seq":2,"op":"add","uuid":"9372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:04:06Z","end":"2019-09-01T00:04:06Z","value":76,"unit":"count/min","source":"Watch","device":"S9","metadata":{"HKMetadataKeyHeartRateMotionContext":1}}"#,
        ]
        let samples = try lines.map { text in
            let item = Array(text.utf8).withUnsafeBytes { StoredLineDecoder.item($0, memo: &memo) }
            guard case .added(let sample as QuantitySample)? = item else { throw HealthLogError(.corrupt, "not read: \(text)") }
            return sample
        }
        #expect(samples[0].fields.shared === samples[1].fields.shared)
        var changed = samples[1]
        changed.fields.metadata = [:]
        #expect(samples[0].metadata == ["HKMetadataKeyHeartRateMotionContext": .number(1)])
        #expect(samples[1].metadata == samples[0].metadata)
        #expect(changed.metadata.isEmpty && changed.source == "Watch" && changed.device == "S9")
    }
}
