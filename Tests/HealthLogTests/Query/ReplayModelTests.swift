import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A seeded, model-based property test of appends and anchored queries (the event line
/// and anchor rules 1–6 of `docs/events-and-queries.md`). Random appends — adds of several types (one rare), deletes of live samples
/// (also ones added earlier in the same append), sync-identifier replacements and skipped
/// lower versions, empty appends, and invalid appends that must change nothing — run
/// against a small in-memory model, with batch and segment sizes small enough that appends
/// span batches and segments. After each append, queries from random anchors with random
/// type filters and limits must match the model in HealthKit's view and in the raw view:
/// ascending order, limit counting samples and deletes, the new anchor, paging, repeatable
/// results, refused anchors (ahead of head, other store, malformed), byte-identical files
/// after a refused append, and a sound `verify`.
@Suite("Replay against a model")
struct ReplayModelTests {
    @Test("Random appends replay as the model predicts", arguments: [1, 7, 2024, 0xC0FFEE] as [UInt64])
    func randomAppends(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 1_500
        options.segmentBytes = 8_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        let other = HealthStore(directory: dir.file("other"), options: options)
        _ = try other.append(ndjson: Array("{\"type\":\"\(heartRate)\",\"start\":\"2024-03-01T08:00:00Z\",\"value\":1,\"unit\":\"count/min\"}\n".utf8))
        var foreign = [try other.headAnchor()]
        foreign.append(try other.replay(ReplayRequest(anchor: foreign[0])) { _ in }.newAnchor)
        foreign.append(QueryAnchor(seq: 0, storeTag: foreign[0].storeTag))

        var rng = SeededRandom(state: seed)
        var run = ModelRun(store: store, foreign: foreign)
        for step in 0..<40 {
            if step > 0, rng.chance(15) {
                try run.invalidAppend(&rng)
            } else {
                try run.validAppend(&rng)
            }
            try run.checkQueries(&rng)
            if step % 8 == 7 { try run.checkVerify() }
        }
        try run.checkVerify()
        let segments = try store.verify().segments
        #expect(run.model.head > 200 && segments > 5, "the run should span many batches and segments")
    }
}

private let heartRate = "HKQuantityTypeIdentifierHeartRate"
private let types = [
    heartRate, "HKQuantityTypeIdentifierStepCount", "HKCategoryTypeIdentifierSleepAnalysis", "HKWorkoutTypeIdentifier",
    "HKQuantityTypeIdentifierBloodGlucose", "HKQuantityTypeIdentifierBloodPressureSystolic",
    "HKQuantityTypeIdentifierBloodPressureDiastolic", "HKCorrelationTypeIdentifierBloodPressure",
]
/// A type never appended, for filters that match nothing.
private let absentType = "HKQuantityTypeIdentifierBodyMass"
/// Sources and devices: the JSON token written and the string it decodes to.
private let sources: [(token: String, value: String)?] = [nil, (#""Apple Watch""#, "Apple Watch"), (#""iPhone""#, "iPhone"), (#""Ana\u00EFs \"W\"""#, "Anaïs \"W\"")]
private let devices: [(token: String, value: String)?] = [nil, nil, (#""Watch7,1""#, "Watch7,1")]
private let offsets = ["Z", "+01:00", "-05:30"]

extension SeededRandom {
    /// A random UUID in upper case.
    fileprivate mutating func uuid() -> String {
        let c = Array(String(format: "%016llX%016llX", next(), next()))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }
}

/// A sample as the model knows it; `uuid` is nil until read back for an add that gave none.
private struct ModelSample {
    var uuid: String?, type: String, start: String, end: String, source: String?, device: String?
    var sync: (id: String, version: Int)?
    var deleted = false
}

private struct ModelEvent { var isDelete: Bool, sample: Int, type: String }

/// What the store should hold: every event in order (event k has sequence number k + 1).
private struct Model {
    var samples: [ModelSample] = []
    var events: [ModelEvent] = []
    var live: [Int] = []
    var liveBySync: [String: Int] = [:]
    var head: UInt64 { UInt64(events.count) }

    mutating func add(_ sample: ModelSample) {
        samples.append(sample)
        events.append(ModelEvent(isDelete: false, sample: samples.count - 1, type: sample.type))
        live.append(samples.count - 1)
        if let sync = sample.sync { liveBySync[sync.id] = samples.count - 1 }
    }

    mutating func delete(_ index: Int) {
        events.append(ModelEvent(isDelete: true, sample: index, type: samples[index].type))
        samples[index].deleted = true
        live.removeAll { $0 == index }
        if let sync = samples[index].sync, liveBySync[sync.id] == index { liveBySync[sync.id] = nil }
    }

    /// The sequence numbers a query should deliver.
    func expected(after anchor: UInt64, types: Set<String>, raw: Bool, limit: Int) -> [UInt64] {
        var out: [UInt64] = []
        for (k, event) in events.enumerated().dropFirst(Int(anchor)) where types.isEmpty || types.contains(event.type) {
            if !raw, !event.isDelete, samples[event.sample].deleted { continue }
            out.append(UInt64(k + 1))
            if limit > 0, out.count == limit { break }
        }
        return out
    }
}

/// The lines of one append and the summary it should produce.
private struct Plan { var lines: [String] = [], added = 0, deleted = 0, replaced = 0, skipped = 0 }

/// Adds `ops` random operations to `plan`, applying them to `model`.
private func extend(_ plan: inout Plan, _ rng: inout SeededRandom, _ model: inout Model, ops: Int) {
    func when(_ offset: String) -> (String, String) {
        let day = rng.int(1...28), hour = rng.int(0...20), minute = rng.int(0...59)
        let date = "2024-03-" + String(format: "%02d", day) + "T"
        return (date + String(format: "%02d:%02d:00", hour, minute) + offset,
                date + String(format: "%02d:%02d:00", hour + rng.int(0...3), minute) + offset)
    }
    func addLine(_ sample: ModelSample, given uuid: String?, _ body: String) -> String {
        var fields: [String] = rng.chance(50) ? [#""op":"add""#] : []
        if let uuid { fields.append(#""uuid":"\#(rng.chance(30) ? uuid.lowercased() : uuid)""#) }
        fields.append(#""type":"\#(sample.type)","start":"\#(sample.start)""#)
        if sample.end != sample.start || rng.chance(50) { fields.append(#""end":"\#(sample.end)""#) }
        fields.append(body)
        if let token = sources.first(where: { $0?.value == sample.source })??.token { fields.append(#""source":\#(token)"#) }
        if let token = devices.first(where: { $0?.value == sample.device })??.token { fields.append(#""device":\#(token)"#) }
        if let sync = sample.sync {
            fields.append(#""metadata":{"HKMetadataKeySyncIdentifier":"\#(sync.id)","HKMetadataKeySyncVersion":\#(sync.version)}"#)
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
    func newSample(_ type: String, uuid: String? = nil) -> ModelSample {
        let (start, end) = when(rng.pick(offsets))
        return ModelSample(uuid: uuid ?? rng.uuid(), type: type, start: start, end: end, source: rng.pick(sources)?.value, device: rng.pick(devices)?.value)
    }
    func put(_ sample: ModelSample, given: String?, _ body: String) {
        plan.lines.append(addLine(sample, given: given, body))
        model.add(sample)
        plan.added += 1
    }
    for _ in 0..<ops {
        let roll = rng.int(0...99)
        if rng.chance(1) { plan.lines.append("") }
        switch roll {
        case 0..<40:
            let type = rng.pick([heartRate, "HKQuantityTypeIdentifierStepCount"])
            var sample = newSample(type)
            let given = rng.chance(85) ? sample.uuid : nil
            if given == nil { sample.uuid = nil }
            let unit = type == heartRate ? "count/min" : "count"
            put(sample, given: given, #""value":\#(rng.int(40...180))\#(rng.chance(30) ? ".5" : ""),"unit":"\#(unit)""#)
        case 40..<50:
            let value = rng.chance(50) ? #""HKCategoryValueSleepAnalysisAsleepCore""# : String(rng.int(0...5))
            let sample = newSample("HKCategoryTypeIdentifierSleepAnalysis")
            put(sample, given: sample.uuid, #""value":\#(value)"#)
        case 50..<54:
            let sample = newSample("HKWorkoutTypeIdentifier")
            put(sample, given: sample.uuid, #""activity":"HKWorkoutActivityTypeRunning","duration":\#(rng.int(60...7200))"#)
        case 54..<56:
            let sample = newSample("HKQuantityTypeIdentifierBloodGlucose")  // the rare type
            put(sample, given: sample.uuid, #""value":\#(rng.int(70...200)),"unit":"mg/dL""#)
        case 56..<59:
            let members = [newSample("HKQuantityTypeIdentifierBloodPressureSystolic"), newSample("HKQuantityTypeIdentifierBloodPressureDiastolic")]
            for member in members { put(member, given: member.uuid, #""value":\#(rng.int(60...140)),"unit":"mmHg""#) }
            let correlation = newSample("HKCorrelationTypeIdentifierBloodPressure")
            put(correlation, given: correlation.uuid, #""objects":["\#(members[0].uuid!)","\#(members[1].uuid!.lowercased())"]"#)
        case 59..<80:
            let known = model.live.filter { model.samples[$0].uuid != nil }
            guard !known.isEmpty else { continue }
            let target = rng.pick(known)
            let sample = model.samples[target]
            let type = rng.chance(40) ? #","type":"\#(sample.type)""# : ""
            plan.lines.append(#"{"op":"delete","uuid":"\#(rng.chance(30) ? sample.uuid!.lowercased() : sample.uuid!)"\#(type)}"#)
            model.delete(target)
            plan.deleted += 1
        default:
            var sample = newSample(heartRate)
            let id = "sync-\(rng.int(0...4))"
            let sync = (id: id, version: max(0, (model.liveBySync[id].map { model.samples[$0].sync!.version } ?? 1) + rng.int(-2...3)))
            sample.sync = sync
            plan.lines.append(addLine(sample, given: sample.uuid, #""value":\#(rng.int(40...180)),"unit":"count/min""#))
            if let current = model.liveBySync[sync.id] {
                guard sync.version > model.samples[current].sync!.version else {
                    plan.skipped += 1
                    continue
                }
                model.delete(current)
                plan.replaced += 1
            } else {
                plan.added += 1
            }
            model.add(sample)
        }
    }
}

private func ndjson(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

/// The sequence number at the start of a stored line (`{"seq":N,…`).
private func seqOf(_ line: some Collection<UInt8>) -> UInt64? {
    guard line.starts(with: #"{"seq":"#.utf8) else { return nil }
    return UInt64(String(decoding: line.dropFirst(7).prefix { $0 >= 48 && $0 <= 57 }, as: UTF8.self))
}

/// Every file and directory under `path`, with a file's bytes (nil for a directory).
private func storeFiles(_ path: String) -> [String: Data?] {
    let names = FileManager.default.subpaths(atPath: path) ?? []
    return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: path + "/" + $0)) })
}

/// One seeded run: the store, the model, and the stored line of every sequence number.
private struct ModelRun {
    let store: HealthStore
    let foreign: [QueryAnchor]
    var model = Model()
    var stored: [[UInt8]] = []
    var issued: [QueryAnchor] = []

    mutating func validAppend(_ rng: inout SeededRandom) throws {
        var plan = Plan()
        let ops = !store.exists ? 10 : rng.chance(4) ? 0 : rng.chance(12) ? rng.int(30...90) : rng.int(1...10)
        let before = model.head
        extend(&plan, &rng, &model, ops: ops)
        let summary = try store.append(ndjson: ndjson(plan.lines))
        #expect(summary.text == "added \(plan.added), deleted \(plan.deleted), replaced \(plan.replaced), skipped \(plan.skipped)")
        #expect(summary.anchor.seq == model.head)
        if model.head > 0 { issued.append(summary.anchor) }
        try absorb(after: before)
    }

    /// Reads the events after `before` raw, checks them against the model, learns the
    /// UUIDs the store assigned and keeps each stored line.
    mutating func absorb(after before: UInt64) throws {
        var lines: [[UInt8]] = []
        _ = try store.replay(ReplayRequest(anchor: QueryAnchor(fromValue: before), raw: true)) { lines.append(Array($0)) }
        try #require(UInt64(lines.count) == model.head - before)
        for (k, line) in lines.enumerated() {
            let seq = before + UInt64(k) + 1
            let event = model.events[Int(seq) - 1]
            let json = try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect((json["seq"] as? NSNumber)?.uint64Value == seq)
            #expect(json["op"] as? String == (event.isDelete ? "delete" : "add"))
            #expect(json["type"] as? String == event.type)
            if model.samples[event.sample].uuid == nil { model.samples[event.sample].uuid = json["uuid"] as? String }
            let sample = model.samples[event.sample]
            #expect(["uuid", "source", "device"].map { json[$0] as? String } == [sample.uuid, sample.source, sample.device])
            if event.isDelete {
                for (key, text) in [("start", sample.start), ("end", sample.end)] {
                    #expect(Timestamp(iso8601: json[key] as? String ?? "")?.microseconds == Timestamp(iso8601: text)?.microseconds)
                }
                let metadata = json["metadata"] as? [String: Any]
                #expect(metadata?["HKMetadataKeySyncIdentifier"] as? String == sample.sync?.id)
                #expect((metadata?["HKMetadataKeySyncVersion"] as? NSNumber)?.intValue == sample.sync?.version)
            }
            stored.append(line)
        }
    }

    /// An append with a bad line after a valid prefix: refused, naming the line, with the
    /// store's files byte-identical.
    mutating func invalidAppend(_ rng: inout SeededRandom) throws {
        var scratch = model
        var plan = Plan()
        extend(&plan, &rng, &scratch, ops: rng.chance(30) ? rng.int(50...150) : rng.int(0...8))
        let used = scratch.samples.compactMap(\.uuid)
        let deleted = scratch.samples.filter { $0.deleted && $0.uuid != nil }.map { $0.uuid! }
        let sample = #""type":"\#(heartRate)","start":"2024-03-02T08:00:00Z","value":1,"unit":"count/min""#
        switch rng.int(0...8) {
        case 0: plan.lines.append(#"{"type":"\#(heartRate)","start":"#)
        case 1: plan.lines.append(#"{"op":"delete","uuid":"\#(rng.uuid())"}"#)
        case 2 where !used.isEmpty: plan.lines.append(#"{"uuid":"\#(rng.pick(used).lowercased())",\#(sample)}"#)
        case 3: plan.lines.append(#"{\#(sample),"end":"2024-03-02T07:59:59Z"}"#)
        case 4: plan.lines.append(#"{\#(sample),"sourceVerison":"1"}"#)
        case 6 where !deleted.isEmpty: plan.lines.append(#"{"op":"delete","uuid":"\#(rng.pick(deleted))"}"#)
        case 7: plan.lines.append(#"{"type":"\#(heartRate)","start":"2024-03-02T08:00:00Z","value":1e999,"unit":"count/min"}"#)
        case 8: plan.lines.append(#"{\#(sample),"metadata":{"HKMetadataKeySyncIdentifier":"sync-1"}}"#)
        default:
            plan.lines.append(#"{"type":"HKCorrelationTypeIdentifierBloodPressure","start":"2024-03-02T08:00:00Z","objects":["\#(rng.uuid())"]}"#)
            let badLine = plan.lines.count
            extend(&plan, &rng, &scratch, ops: rng.int(0...20))
            try expectRefused(plan.lines, line: badLine)
            return
        }
        try expectRefused(plan.lines, line: plan.lines.count)
    }

    private func expectRefused(_ lines: [String], line: Int) throws {
        let files = storeFiles(store.directory)
        let head = try store.headAnchor()
        let error = #expect(throws: HealthLogError.self) { try store.append(ndjson: ndjson(lines)) }
        #expect(error?.code == .badInput)
        #expect(error?.message.hasPrefix("line \(line): ") == true, "\(error?.message ?? "")")
        #expect(try store.headAnchor() == head)
        #expect(storeFiles(store.directory) == files, "a refused append changed the store's files")
    }

    /// A random anchor at or below the head, as a bare number, an issued token or the head.
    private func randomAnchor(_ rng: inout SeededRandom) throws -> QueryAnchor {
        switch rng.int(0...5) {
        case 0: return .beginning
        case 1: return try QueryAnchor(token: "0")
        case 2: return try store.headAnchor()
        case 3 where !issued.isEmpty: return try QueryAnchor(token: rng.pick(issued).token)
        default: return QueryAnchor(fromValue: UInt64(rng.int(0...Int(model.head))))
        }
    }

    private func randomTypes(_ rng: inout SeededRandom) -> Set<String> {
        guard rng.chance(60) else { return [] }
        return Set((0..<rng.int(1...3)).map { _ in rng.chance(10) ? absentType : rng.pick(types) })
    }

    /// Runs `request`, checking each line is the stored line of its sequence number.
    private func query(_ request: ReplayRequest) throws -> (seqs: [UInt64], outcome: ReplayOutcome) {
        var seqs: [UInt64] = []
        let outcome = try store.replay(request) { line in
            let seq = seqOf(line) ?? 0
            #expect(seq >= 1 && seq <= stored.count && line.elementsEqual(stored[Int(seq) - 1]), "unexpected line")
            seqs.append(seq)
        }
        return (seqs, outcome)
    }

    mutating func checkQueries(_ rng: inout SeededRandom) throws {
        #expect(try store.headAnchor().seq == model.head)
        for round in 0..<5 {
            let request = ReplayRequest(anchor: try randomAnchor(&rng), types: randomTypes(&rng), limit: rng.chance(40) ? 0 : rng.int(1...10), raw: rng.chance(40))
            let want = model.expected(after: request.anchor.seq, types: request.types, raw: request.raw, limit: request.limit)
            let got = try query(request)
            #expect(got.seqs == want, "\(request)")
            #expect(got.outcome.delivered == want.count)
            #expect(got.outcome.newAnchor.seq == want.last ?? request.anchor.seq)
            #expect(try QueryAnchor(token: got.outcome.newAnchor.token) == got.outcome.newAnchor)
            issued.append(got.outcome.newAnchor)
            if round == 0 {
                let again = try query(request)
                #expect(again.seqs == got.seqs && again.outcome == got.outcome, "a repeated query changed")
            }
        }
        try checkPaging(&rng)
        try checkRefusals(&rng)
    }

    /// Follows new anchors page by page until a short (possibly empty) page.
    private func checkPaging(_ rng: inout SeededRandom) throws {
        let start = try randomAnchor(&rng)
        let types = randomTypes(&rng)
        let raw = rng.chance(40)
        let all = model.expected(after: start.seq, types: types, raw: raw, limit: 0)
        let limit = max(rng.int(1...6), all.count / 12 + 1)
        var anchor = start
        var seen: [UInt64] = []
        for _ in 0...(all.count / limit + 1) {
            let page = try query(ReplayRequest(anchor: anchor, types: types, limit: limit, raw: raw))
            #expect(page.seqs.count <= limit)
            #expect(page.outcome.newAnchor.seq == page.seqs.last ?? anchor.seq)
            seen += page.seqs
            anchor = try QueryAnchor(token: page.outcome.newAnchor.token)
            if page.seqs.count < limit { break }
        }
        #expect(seen == all, "paging with limit \(limit) from \(start.seq)")
    }

    /// Anchors ahead of the head, from another store, or malformed are refused.
    private func checkRefusals(_ rng: inout SeededRandom) throws {
        let head = try store.headAnchor()
        var refused = [QueryAnchor(fromValue: model.head + UInt64(rng.int(1...3))), rng.pick(foreign)]
        if let tag = head.storeTag { refused.append(QueryAnchor(seq: model.head + 1, storeTag: tag)) }
        for anchor in refused {
            let raw = rng.chance(50)
            let error = #expect(throws: HealthLogError.self) { try store.replay(ReplayRequest(anchor: anchor, raw: raw)) { _ in } }
            #expect(error?.code == .anchorRefused, "anchor \(anchor.seq) should be refused")
        }
        var token = Array(head.token)
        if !token.isEmpty, head.storeTag != nil {
            let at = rng.int(0...token.count - 1)
            token[at] = token[at] == "A" ? "B" : "A"
            let error = #expect(throws: HealthLogError.self) { try QueryAnchor(token: String(token)) }
            #expect(error?.code == .anchorRefused)
        }
    }

    func checkVerify() throws {
        let report = try store.verify()
        #expect(report.isSound, "\(report.problems)")
        #expect(report.events == model.head)
    }
}
