#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The two-thread read behind statistics without a predicate (``StatisticsScan``) and the
/// shortcuts of the summary reader it runs: each gives exactly what the one-thread path
/// through the replayer and the full parsers give.
@Suite("Statistics scan")
struct StatisticsScanTests {
    /// A store of small batches holding `count` samples of `type` from two sources in two
    /// units, at instants with and without fractions and offsets, some with `HKTimeZone`,
    /// with one in seven deleted.
    private static func store(_ dir: TemporaryDirectory, type: SampleType, units: [String], count: Int) throws -> HealthStore {
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 1_500
        options.segmentBytes = 40_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        var random = SeededRandom(state: 12)
        var samples: [QuantitySample] = []
        var clock = Timestamp(iso8601: "2024-03-01T00:00:00Z")!.microseconds
        for k in 0..<count {
            clock += Int64(random.next() % 3_000_000_000)
            let offset: Int16 = k % 5 == 0 ? 60 : k % 7 == 0 ? -300 : 0
            let digits = UInt8(random.next() % 4) * 3
            var start = Timestamp(microseconds: clock, offsetMinutes: offset, isZulu: offset == 0, fractionDigits: digits)
            start.microseconds -= start.microseconds % [1_000_000, 1_000, 1][Int(digits / 3) % 3]
            let end = k % 3 == 0 ? start : Timestamp(microseconds: start.microseconds + 600_000_000, offsetMinutes: offset, isZulu: offset == 0, fractionDigits: 0)
            let value = Double(random.next() % 20_000) / [1, 10, 100, 1000][Int(random.next() % 4)] + 40
            var fields = SampleFields(start: start, end: end, source: k % 4 == 1 ? "Phone" : "Watch")
            if k % 11 == 0 { fields.metadata = [StatisticsTimeZone.metadataKey: .string(k % 2 == 0 ? "America/New_York" : "Not/AZone")] }
            samples.append(QuantitySample(type: type, quantity: Quantity(value, units[k % 13 == 0 ? units.count - 1 : 0]), fields: fields))
        }
        try store.save(samples)
        try store.delete(samples.enumerated().filter { $0.offset % 7 == 3 }.map(\.element))
        return store
    }

    @Test("Statistics read on two threads equal the replayer's, over many batches, windows, deletes, sources, units and clocks")
    func twoThreadsEqualOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let heart = SampleType.quantity("HeartRate")
        let steps = SampleType.quantity("StepCount")
        let store = try Self.store(dir, type: heart, units: ["count/min", "count/s"], count: 1_500)
        let batches = try LogSnapshot(StoreLayout(directory: dir.file("store"))).batchCount
        #expect(batches > 3 * StatisticsScan.window, "the samples span several windows")
        let everySource = QueryPredicate.sources(["Watch", "Phone"])
        for clock in [StatisticsTimeZone.fixed(offsetMinutes: 0), .fixed(offsetMinutes: 330), .recorded] {
            for options in [StatisticsOptions.discrete, [.discrete, .separateBySource], [.duration]] {
                for interval in [StatisticsInterval.hour, .day] {
                    let query = StatisticsQuery(type: heart, interval: interval, options: options, timeZone: clock)
                    var replayed = query
                    replayed.predicate = everySource
                    let rows = try store.statistics(query)
                    #expect(!rows.isEmpty)
                    #expect(rows == (try store.statistics(replayed)), "\(clock) \(interval) \(options)")
                }
            }
        }
        let stepDir = try TemporaryDirectory()
        defer { stepDir.remove() }
        let stepStore = try Self.store(stepDir, type: steps, units: ["count"], count: 900)
        for options in [StatisticsOptions.sum, [.sum, .separateBySource]] {
            let query = StatisticsQuery(type: steps, interval: .day, options: options, timeZone: .recorded)
            var replayed = query
            replayed.predicate = everySource
            #expect(try stepStore.statistics(query) == (try stepStore.statistics(replayed)), "\(options)")
        }
    }

    @Test("A damaged frame in either thread's part of any window fails the statistics with the replayer's error, the first in the log when two are")
    func damagedWindows() throws {
        let heart = SampleType.quantity("HeartRate")
        let query = StatisticsQuery(type: heart, interval: .day, options: .discrete)
        var replayed = query
        replayed.predicate = .sources(["Watch", "Phone"])
        let window = StatisticsScan.window
        let share = window - Int((Double(window) * StatisticsScan.workerShare).rounded())
        // Batch positions (among those holding the type): the calling thread's part of
        // window 0, the second thread's of window 0 (windows 0 and 1 split at the starting
        // share), one of window 2 (split by the threads' pace, so in either part), the last
        // batch; then two at once.
        let cases: [[Int]] = [[1], [share + 1], [2 * window + share + 2], [-1], [window + 1, share + 3], [share + 2, window + share + 2]]
        for damaged in cases {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let store = try Self.store(dir, type: heart, units: ["count/min", "count/s"], count: 1_500)
            let snapshot = try LogSnapshot(StoreLayout(directory: dir.file("store")))
            let holding = try snapshot.allBatches().filter { $0.header.groups.contains { !$0.isDelete && $0.type == heart.identifier } }
            #expect(holding.count > 2 * window + share + 2)
            for position in damaged {
                let batch = holding[position < 0 ? holding.count + position : position]
                let group = try #require(batch.header.groups.firstIndex { !$0.isDelete && $0.type == heart.identifier })
                try ByteSurgery.flip(dir.file("store") + "/" + snapshot.segments[batch.segment].displayPath, at: batch.groupOffsets[group] + 20)
            }
            let expected = #expect(throws: HealthLogError.self) { try store.statistics(replayed) }
            let got = #expect(throws: HealthLogError.self) { try store.statistics(query) }
            #expect(got?.code == .corrupt)
            #expect(got?.description == expected?.description, "damaged batches \(damaged)")
        }
    }

    @Test("Statistics of a type with no samples, or in one batch, are read on one thread alike")
    func fewBatches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(61, "count/min"), fields: SampleFields(start: Timestamp(iso8601: "2024-03-01T10:00:00.5Z")!))])
        let rows = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: .discrete))
        #expect(rows.map(\.label) == ["2024-03-01"] && rows.map(\.average) == [61])
        #expect(try store.statistics(StatisticsQuery(type: .quantity("BodyMass"), interval: .day, options: .discrete)).isEmpty)
    }

    /// `text` as a stored add line's bytes, with a newline, passed to `body`.
    private static func withLine<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        Array((text + "\n").utf8).withUnsafeBytes(body)
    }

    /// A stored add line with these dates and value.
    private static func line(start: String, end: String, value: String = "72", uuid: String = "8372AFED-5A23-4BC2-B05C-93BC2983C8A4") -> String {
        #"{"seq":12,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"\#(start)","end":"\#(end)","value":\#(value),"unit":"count/min","source":"Watch"}"#
    }

    @Test("The summary reader's remembered date reads every instant as Timestamp does, and refuses what it refuses")
    func rememberedDates() {
        let texts = [
            "2024-03-01T10:00:00Z", "2024-03-01T10:00:01Z", "2024-03-01T23:59:59.999999Z", "2024-03-01T00:00:00.1Z", "2024-03-01T12:00:00.123456789Z",
            "2024-03-01T12:00:00.1234567890Z", "2024-03-01T24:00:00Z", "2024-03-01T12:60:00Z", "2024-03-01T12:00:00.Z", "2024-03-01T12:00:00+01:00",
            "2024-03-01T12:0a:00Z", "2024-03-02T00:00:00Z", "2024-03-02T08:30:00.5Z", "2024-03-01T08:30:00Z", "2024-02-30T08:30:00Z", "1969-12-31T23:00:00Z",
            "1969-12-31T23:30:00Z", "2024-03-02T08:30:00.5+00:00",
        ]
        var reader = StoredLineView.SummaryReader()
        for start in texts {
            for end in [start, "2024-03-02T08:30:00.25Z"] {
                let fields = Self.withLine(Self.line(start: start, end: end)) { reader.fields($0) }
                let expected = Timestamp(iso8601: start).flatMap { s in Timestamp(iso8601: end).map { (s, $0) } }
                #expect(fields?.start == expected?.0.microseconds, "\(start)")
                #expect(fields?.end == expected?.1.microseconds, "\(end)")
                #expect(fields?.startOffset == expected?.0.offsetMinutes, "\(start)")
            }
        }
    }

    @Test("The summary reader finds each line's own start, when the type before it changes from line to line")
    func startAfterChangingTypes() {
        var reader = StoredLineView.SummaryReader()
        let uuid = "8372AFED-5A23-4BC2-B05C-93BC2983C8A4"
        let lines = [
            (#"{"seq":9,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T10:00:00Z","end":"2024-03-01T10:00:00Z","value":1}"#, "2024-03-01T10:00:00Z"),
            (#"{"seq":10,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T11:00:00Z","end":"2024-03-01T11:00:00Z","value":1}"#, "2024-03-01T11:00:00Z"),
            (#"{"seq":11,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T12:00:00Z","end":"2024-03-01T12:00:00Z","value":1,"metadata":{"a":1,"start":"2024-03-01T13:00:00Z"}}"#, "2024-03-01T12:00:00Z"),
            (#"{"seq":12,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T14:00:00Z","end":"2024-03-01T14:00:00Z","value":1}"#, "2024-03-01T14:00:00Z"),
            (#"{"seq":13,"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T15:00:00Z","end":"2024-03-01T15:00:00Z","value":1}"#, "2024-03-01T15:00:00Z"),
        ]
        for (line, start) in lines {
            let fields = Self.withLine(line) { reader.fields($0) }
            #expect(fields?.start == Timestamp(iso8601: start)?.microseconds, "\(line)")
        }
    }

    @Test("The summary reader's numbers are strtod's, bit for bit")
    func numbers() {
        var random = SeededRandom(state: 7)
        var texts = ["0", "-0", "72", "72.5", "0.1", "0.3", "-12.75", "1e3", "1.5E-7", "123456789012345", "1234567890123456", "12345678901234567890", "0.0000000000000000000001", "9007199254740993"]
        for _ in 0..<5_000 {
            let digits = Int(random.next() % 15) + 1
            var text = String(random.next() % 1_000_000_000_000_000)
            text = String(text.prefix(digits))
            let point = Int(random.next() % UInt64(digits + 1))
            if point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text.removeLast() }
            texts.append(random.next() % 5 == 0 ? "-" + text : text)
        }
        for text in texts {
            let read = Array((text + ",").utf8).withUnsafeBytes { SummaryCache.number($0, 0) }
            let expected = strtod(text, nil)
            #expect(read?.value.bitPattern == expected.bitPattern, "\(text)")
            #expect(read?.end == text.utf8.count, "\(text)")
        }
    }

    @Test("A deleted sample is found whatever the case of its UUID's letters, and another is not")
    func deletedSampleCase() {
        var deleted = DeletedSamples(capacity: 1)
        let doomed = "8372AFED-5A23-4BC2-B05C-93BC2983C8A4"
        Self.withLine(#"{"seq":40,"op":"delete","uuid":"\#(doomed)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T10:00:00Z","end":"2024-03-01T10:00:00Z"}"#) {
            if let uuid = StoredLinePrefix.uuid($0, isDelete: true) { deleted.insert(uuid) }
        }
        for (uuid, isDeleted) in [(doomed, true), (doomed.lowercased(), true), ("8372AFED-5A23-4BC2-B05C-93BC2983C8A5", false), ("9372AFED-5A23-4BC2-B05C-93BC2983C8A4", false)] {
            let found = Self.withLine(Self.line(start: "2024-03-01T10:00:00Z", end: "2024-03-01T10:00:00Z", uuid: uuid)) { line in
                StoredLinePrefix.uuidOffset(line, isDelete: false).map { deleted.contains(line, uuidAt: $0) }
            }
            #expect(found == isDeleted, "\(uuid)")
        }
    }
}
