import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Conformance tests for HealthKit's documented behaviour of anchored queries, one per
/// behaviour that applies to healthlog, numbered and named after it. A behaviour that
/// restates an anchor rule (`docs/events-and-queries.md`) is checked once, by that rule's
/// test in `ConformanceSpecRulesTests.swift`, named after both: items 7 (rule 5), 8 (rule 1),
/// 9 (rule 2), 11 (rule 3), 14 (rule 10) and 19 (rule 6, where healthlog deliberately
/// differs from HealthKit: refuse, never restart or clamp). Items 20, 22, 24, 26 and 27
/// have no test here: compaction and its expiry of anchors (20, 27) and statistics (26)
/// are tested in their own suites; `deleteObjects(of:predicate:)` (22) and descriptor
/// lists (24) have no counterpart in healthlog.
@Suite("Conformance: HealthKit checklist")
struct ConformanceChecklistTests {
    /// A small log: heart rates and step counts, some deleted, one append interleaving
    /// both types. Returns the live samples and the deleted UUIDs, each in commit order.
    static func smallLog(_ store: HealthStore) throws -> (live: [SampleUUID], deleted: [SampleUUID]) {
        let base = instant("2024-03-01T08:00:00Z")
        var all: [any Sample] = []
        for i in 0..<8 {
            let t = shifted(base, seconds: Double(60 * i))
            let batch: [any Sample] = [quantitySample(Double(60 + i), start: t), quantitySample(Double(10 * i), type: stepType, unit: "count", start: t)]
            try store.save(batch)
            all += batch
        }
        let deleted = [all[3].uuid, all[0].uuid, all[10].uuid]
        try store.delete([deleted[0]])
        try store.delete([deleted[1], deleted[2]])
        let live = all.map(\.uuid).filter { !deleted.contains($0) }
        return (live, deleted)
    }

    /// Runs `query` and waits for its results handler.
    static func run(_ query: (@escaping AnchoredObjectQuery.ResultsHandler) -> AnchoredObjectQuery, on store: HealthStore) async throws -> HandlerLog.Call {
        let log = HandlerLog()
        try store.execute(query { _, s, d, a, e in log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e)) })
        #expect(await log.wait { !$0.isEmpty })
        return try #require(log.all.first)
    }

    @Test("Checklist 1: a query with a nil anchor returns every matching live sample plus the retained deleted objects")
    func item1NilAnchor() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let (live, deleted) = try Self.smallLog(fixture.store)
        let call = try await Self.run({ AnchoredObjectQuery(type: nil, predicate: nil, anchor: nil, limit: 0, resultsHandler: $0) }, on: fixture.store)
        #expect(call.error == nil)
        #expect(call.samples?.map(\.uuid) == live)
        #expect(call.deleted?.map(\.uuid) == deleted)
        #expect(call.anchor == (try fixture.store.headAnchor()))
        // With a type: that type's live samples and deletions only.
        let hr = try await Self.run({ AnchoredObjectQuery(type: hrType, predicate: nil, anchor: nil, limit: 0, resultsHandler: $0) }, on: fixture.store)
        #expect(hr.samples?.allSatisfy { $0.sampleType == hrType } == true && hr.samples?.count == 6)
        #expect(hr.deleted?.map(\.uuid) == [deleted[1], deleted[2]])
    }

    @Test("Checklist 2: anchorFromValue(0) (and the token 0) gives the same results as nil; fromValue(n) the same as the store's token at n")
    func item2AnchorFromValueZero() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        try store.save([quantitySample(1, start: instant("2024-03-01T08:00:00Z")), quantitySample(2, start: instant("2024-03-01T08:00:00Z"))])
        let atTwo = try store.headAnchor()
        _ = try Self.smallLog(store)
        let reference = try await AnchoredObjectQueryDescriptor(anchor: nil).result(for: store)
        for anchor in [QueryAnchor(fromValue: 0), .beginning, try QueryAnchor(token: "0")] {
            let result = try await AnchoredObjectQueryDescriptor(anchor: anchor).result(for: store)
            #expect(itemKeys(result) == itemKeys(reference) && result.newAnchor == reference.newAnchor)
        }
        #expect(itemKeys(reference).count > 10)
        let byValue = try store.result(ReplayRequest(anchor: QueryAnchor(fromValue: 2)))
        let byToken = try store.result(ReplayRequest(anchor: atTwo))
        #expect(atTwo.seq == 2 && itemKeys(byValue) == itemKeys(byToken) && byValue.newAnchor == byToken.newAnchor)
    }

    @Test("Checklist 3: paging with limit N over M matching events (samples plus deleted objects) returns each exactly once, in ⌈M/N⌉ non-empty pages followed by one empty page")
    func item3PagingPageCount() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        _ = try Self.smallLog(fixture.store)
        let everything = try await AnchoredObjectQueryDescriptor(types: [hrType]).result(for: fixture.store)
        let m = itemKeys(everything).count
        #expect(m == 8, "6 live heart rates and 2 deleted objects")
        for n in [1, 2, 3, 6, 7, 8, 50] {
            let pages = try await Self.pages(fixture.store, types: [hrType], limit: n)
            #expect(pages.count == (m + n - 1) / n + 1, "N=\(n)")
            #expect(pages.last.map { itemKeys($0).isEmpty } == true)
            #expect(pages.dropLast().allSatisfy { !itemKeys($0).isEmpty })
            let keys = pages.flatMap(itemKeys)
            #expect(Set(keys) == Set(itemKeys(everything)) && keys.count == m, "each exactly once")
        }
    }

    /// Every page of a paged query, the final empty one included.
    static func pages(_ store: HealthStore, types: Set<SampleType>, limit: Int) async throws -> [QueryResult] {
        var anchor: QueryAnchor? = nil
        var pages: [QueryResult] = []
        repeat {
            let page = try await AnchoredObjectQueryDescriptor(types: types, anchor: anchor, limit: limit).result(for: store)
            pages.append(page)
            anchor = page.newAnchor
        } while !itemKeys(pages.last!).isEmpty && pages.count < 1000
        return pages
    }

    @Test("Checklist 4: every page but the last holds exactly N items counting both arrays; the last holds M mod N, or N")
    func item4PageSizes() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        _ = try Self.smallLog(fixture.store)
        let m = 16 - 3 + 3  // 13 live samples and 3 deleted objects
        for n in [1, 3, 4, 5, 16, 20] {
            let pages = try await Self.pages(fixture.store, types: [], limit: n).dropLast()  // without the final empty page
            let sizes = pages.map { $0.addedSamples.count + $0.deletedObjects.count }
            #expect(sizes.dropLast().allSatisfy { $0 == n }, "N=\(n): \(sizes)")
            #expect(sizes.last == (m % n == 0 ? n : m % n), "N=\(n): \(sizes)")
            #expect(sizes.reduce(0, +) == m)
        }
        // A page that holds both kinds counts both: the last page of 4 holds 1 sample and 3 deletions.
        let last = try await Self.pages(fixture.store, types: [], limit: 4).dropLast().last
        #expect(last?.addedSamples.count == 1 && last?.deletedObjects.count == 3)
    }

    @Test("Checklist 5: newAnchor equals the sequence number of the last item delivered in the page")
    func item5NewAnchorIsLastItem() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try Self.smallLog(store)
        var anchor = QueryAnchor.beginning
        var lastSeqs: [UInt64] = []
        while true {
            let (lines, outcome) = try replayLines(store, ReplayRequest(anchor: anchor, types: [stepType.identifier], limit: 2))
            if lines.isEmpty { break }
            #expect(outcome.newAnchor.seq == lines.last!.seq)
            #expect(try store.result(ReplayRequest(anchor: anchor, types: [stepType.identifier], limit: 2)).newAnchor.seq == lines.last!.seq)
            lastSeqs.append(lines.last!.seq)
            anchor = outcome.newAnchor
        }
        // Step counts have the even sequence numbers 2…16; the one at 4 was deleted (the
        // deletion is seq 17), so the pages are [2, 6], [8, 10], [12, 14], [16, 17].
        #expect(lastSeqs == [6, 10, 14, 17])
    }

    @Test("Checklist 6: when nothing matches, newAnchor equals the input anchor, even if non-matching events were added")
    func item6NoMatchKeepsAnchor() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        try store.save([quantitySample(70, start: instant("2024-03-01T08:00:00Z"), source: "Watch")])
        let anchor = try store.headAnchor()
        try store.save([quantitySample(5, type: stepType, unit: "count", start: instant("2024-03-01T08:00:00Z"))])
        try store.save([quantitySample(71, start: instant("2024-03-01T08:00:00Z"), source: "Phone")])
        for request in [
            ReplayRequest(anchor: anchor, types: [sleepType.identifier]),
            ReplayRequest(anchor: anchor, types: [hrType.identifier], predicate: .sources(["Watch"])),
            ReplayRequest(anchor: anchor, predicate: .quantity(.greaterThan, 1000), limit: 3),
        ] {
            let result = try store.result(request)
            #expect(itemKeys(result).isEmpty)
            #expect(result.newAnchor == anchor && result.newAnchor.token == anchor.token, "not the head")
        }
        let bare = try store.result(ReplayRequest(anchor: QueryAnchor(fromValue: 1), types: [sleepType.identifier]))
        #expect(bare.newAnchor.seq == 1)
        #expect(try store.result(ReplayRequest(types: [sleepType.identifier])).newAnchor.seq == 0, "nil anchor, no match: 0")
    }

    @Test("Checklist 10: a sample delivered before anchor A and deleted after it comes back from A as a deleted object with the same UUID")
    func item10DeliveredThenDeleted() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let sample = quantitySample(70, start: instant("2024-03-01T08:00:00Z"), source: "Watch", device: "Watch7,1")
        try store.save([sample, quantitySample(71, start: instant("2024-03-01T08:01:00Z"))])
        let first = try store.result(ReplayRequest(limit: 1))
        #expect(first.addedSamples.map(\.uuid) == [sample.uuid])
        try store.delete([sample.uuid])
        let next = try store.result(ReplayRequest(anchor: first.newAnchor))
        #expect(next.addedSamples.count == 1)
        #expect(next.deletedObjects.map(\.uuid) == [sample.uuid])
        #expect(next.deletedObjects.first?.sampleType == hrType && next.deletedObjects.first?.source == "Watch")
    }

    @Test("Checklist 12: saving sync identifier X at version v+1 yields a new sample and a deleted object for version v's UUID; a version ≤ v replaces nothing")
    func item12SyncIdentifierReplacement() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        func line(_ uuid: SampleUUID, _ version: String, _ value: Int) -> String {
            #"{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(value),"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"X","HKMetadataKeySyncVersion":\#(version)}}"# + "\n"
        }
        let v1 = SampleUUID.random(), v2 = SampleUUID.random(), same = SampleUUID.random(), lower = SampleUUID.random()
        let first = try store.append(ndjson: Array(line(v1, "1", 60).utf8))
        #expect(first.added == 1)
        let anchor = first.anchor
        let second = try store.append(ndjson: Array(line(v2, "2", 61).utf8))
        #expect(second.replaced == 1)
        let result = try store.result(ReplayRequest(anchor: anchor))
        #expect(result.addedSamples.map(\.uuid) == [v2])
        #expect(result.deletedObjects.map(\.uuid) == [v1])
        #expect(result.deletedObjects.first?.metadata == [syncIDKey: "X", syncVersionKey: 1])
        // Equal and lower versions are skipped: nothing is written, the live sample stays.
        let head = try store.headAnchor()
        for (uuid, version) in [(same, "2"), (lower, "1")] {
            let summary = try store.append(ndjson: Array(line(uuid, version, 62).utf8))
            #expect(summary.skipped == 1 && summary.added == 0 && summary.replaced == 0)
        }
        #expect(try store.headAnchor() == head)
        #expect(try store.result(ReplayRequest()).addedSamples.map(\.uuid) == [v2])
        // save(_:) goes the same way.
        let v3 = quantitySample(63, start: t, metadata: [syncIDKey: "X", syncVersionKey: 3])
        try store.save([v3])
        let after = try store.result(ReplayRequest(anchor: head))
        #expect(after.addedSamples.map(\.uuid) == [v3.uuid] && after.deletedObjects.map(\.uuid) == [v2])
    }

    @Test("Checklist 13: predicates filter deleted objects too: a date predicate through the deleted sample's dates, under each option")
    func item13PredicatesOnDeletedObjects() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let s = instant("2024-03-01T08:00:00Z"), e = instant("2024-03-01T10:00:00Z")
        let spanning = quantitySample(1, start: shifted(s, seconds: -600), end: shifted(e, seconds: 600))
        let inside = quantitySample(2, start: shifted(s, seconds: 600), end: shifted(s, seconds: 1200))
        let startsInside = quantitySample(3, start: shifted(e, seconds: -60), end: shifted(e, seconds: 60))
        let outside = quantitySample(4, start: shifted(e, seconds: 60))
        let all = [spanning, inside, startsInside, outside]
        try store.save(all)
        try store.delete(all.map(\.uuid))
        func deleted(_ options: DateOptions) throws -> [SampleUUID] {
            let result = try store.result(ReplayRequest(anchor: QueryAnchor(fromValue: 4), predicate: .samples(withStart: s, end: e, options: options)))
            #expect(result.addedSamples.isEmpty)
            return result.deletedObjects.map(\.uuid)
        }
        #expect(try deleted([]) == [spanning.uuid, inside.uuid, startsInside.uuid])
        #expect(try deleted(.strictStartDate) == [inside.uuid, startsInside.uuid])
        #expect(try deleted(.strictEndDate) == [inside.uuid])
        #expect(try deleted([.strictStartDate, .strictEndDate]) == [inside.uuid])
    }

    @Test("Checklist 15: setting the update handler after execute is rejected (a programming error that traps)")
    func item15UpdateHandlerAfterExecute() async throws {
        // The only way this child process can fail is the trap: a setup error exits 0.
        await #expect(processExitsWith: .failure) {
            let store = HealthStore(directory: NSTemporaryDirectory() + "healthlog-no-store-" + UUID().uuidString)
            let query = AnchoredObjectQuery(type: nil, predicate: nil, anchor: nil, limit: 0) { _, _, _, _, _ in }
            do { try store.execute(query) } catch { exit(0) }
            query.updateHandler = { _, _, _, _, _ in }
            exit(0)
        }
    }

    @Test("Checklist 16: a long-running query delivers each later change exactly once, with strictly increasing anchors")
    func item16LiveChangesExactlyOnce() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let base = instant("2024-03-01T08:00:00Z")
        let initial = quantitySample(1, start: base)
        try store.save([initial])
        let log = HandlerLog()
        let query = AnchoredObjectQuery(type: hrType, predicate: .quantity(.lessThan, 1000), anchor: nil, limit: 0) { _, s, d, a, e in
            log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
        }
        query.updateHandler = { _, s, d, a, e in log.record(.init(isResultsHandler: false, samples: s, deleted: d, anchor: a, error: e)) }
        try store.execute(query)
        #expect(await log.wait { $0.count == 1 }, "the initial results")
        let later = (0..<25).map { quantitySample(Double($0), start: shifted(base, seconds: Double($0))) }
        let writer = BackgroundJob {
            for (i, sample) in later.enumerated() {
                try store.save([sample, quantitySample(Double(i), type: stepType, unit: "count", start: base), quantitySample(5000, start: base)])
                if i == 10 { try store.delete([initial.uuid]) }
            }
        }
        #expect(await writer.finished())
        #expect(writer.error == nil)
        let expectedKeys = later.map { "+\($0.uuid)" } + ["-\(initial.uuid)"]
        #expect(await log.wait { HandlerLog.keys($0).count >= expectedKeys.count + 1 })
        store.stop(query)
        let calls = log.all
        #expect(calls.allSatisfy { $0.error == nil })
        let keys = Array(log.keys.dropFirst())  // the initial sample
        // Within one call samples come before deleted objects, so compare as sets plus the sample order.
        #expect(Set(keys) == Set(expectedKeys) && keys.count == expectedKeys.count, "each later change exactly once")
        #expect(keys.filter { $0.hasPrefix("+") } == later.map { "+\($0.uuid)" })
        let anchors = calls.compactMap(\.anchor?.seq)
        #expect(anchors.count == calls.count && zip(anchors, anchors.dropFirst()).allSatisfy { $0 < $1 }, "\(anchors)")
    }

    @Test("Checklist 17: a long-running query started with anchor A delivers everything after A, then live changes, with no gap and no duplicate at the boundary")
    func item17CatchUpLiveBoundary() async throws {
        for round in 0..<3 {
            let fixture = try ConformanceStore()
            defer { fixture.remove() }
            let store = fixture.store
            let base = instant("2024-03-01T08:00:00Z")
            for i in 0..<20 { try store.save([quantitySample(Double(i), start: base)]) }
            let anchor = QueryAnchor(fromValue: UInt64(5 + round))
            // The writer is already appending while the query starts, so the boundary
            // between the first pass and the live phase falls somewhere in its appends.
            let writer = BackgroundJob {
                for i in 0..<40 { try store.save([quantitySample(Double(100 + i), start: base)]) }
            }
            let log = HandlerLog()
            let query = AnchoredObjectQuery(type: nil, predicate: nil, anchor: anchor, limit: 0) { _, s, d, a, e in
                log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
            }
            query.updateHandler = { _, s, d, a, e in log.record(.init(isResultsHandler: false, samples: s, deleted: d, anchor: a, error: e)) }
            try store.execute(query)
            #expect(await writer.finished())
            let expected = try replayLines(store, ReplayRequest(anchor: anchor)).lines.map { "+\($0.uuid)" }
            #expect(expected.count == 15 - round + 40)
            #expect(await log.wait { HandlerLog.keys($0).count >= expected.count })
            store.stop(query)
            #expect(log.keys == expected, "round \(round): exactly the events after A, in order")
            let anchors = log.all.compactMap(\.anchor?.seq)
            #expect(zip(anchors, anchors.dropFirst()).allSatisfy { $0 < $1 } && anchors.last == 60)
            #expect(log.all.first?.isResultsHandler == true && log.all.filter(\.isResultsHandler).count == 1)
        }
    }

    @Test("Checklist 18: an anchor round-trips through coding (Codable, its token) and keeps its sequence number; anchors compare by sequence number")
    func item18AnchorArchive() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        try store.save([quantitySample(1, start: instant("2024-03-01T08:00:00Z")), quantitySample(2, start: instant("2024-03-01T08:00:00Z"))])
        let head = try store.headAnchor()
        let earlier = try store.result(ReplayRequest(limit: 1)).newAnchor
        for anchor in [head, earlier, QueryAnchor.beginning, QueryAnchor(fromValue: 1)] {
            let json = try JSONEncoder().encode([anchor])
            let back = try JSONDecoder().decode([QueryAnchor].self, from: json)
            #expect(back == [anchor] && back[0].seq == anchor.seq)
            let plist = try PropertyListDecoder().decode([QueryAnchor].self, from: try PropertyListEncoder().encode([anchor]))
            #expect(plist == [anchor])
            #expect(try QueryAnchor(token: anchor.token) == anchor)
            #expect(anchor.token.utf8.allSatisfy { c in (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F }, "printable and URL-safe")
            // The decoded anchor works as the original does.
            #expect(itemKeys(try store.result(ReplayRequest(anchor: back[0]))) == itemKeys(try store.result(ReplayRequest(anchor: anchor))))
        }
        #expect(earlier < head && earlier.seq == 1 && head.seq == 2)
        // A decoded token of another store is still refused (it carries the store's identity).
        let json = try JSONEncoder().encode(head)
        #expect(throws: HealthLogError.self) { try JSONDecoder().decode(QueryAnchor.self, from: Data(#""not-an-anchor""#.utf8)) }
        #expect(try JSONDecoder().decode(QueryAnchor.self, from: json).token == head.token)
    }

    @Test("Checklist 21 (the part that applies): deleting an empty list, or a sample that is not live, fails with bad input and writes nothing")
    func item21DeleteInvalid() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let sample = quantitySample(70, start: instant("2024-03-01T08:00:00Z"))
        try store.save([sample])
        try store.delete([sample.uuid])
        let head = try store.headAnchor()
        expectHealthLogError(.badInput) { try store.delete([SampleUUID]()) }
        expectHealthLogError(.badInput) { try store.delete([any Sample]()) }
        expectHealthLogError(.badInput) { try store.delete([SampleUUID.random()]) }
        expectHealthLogError(.badInput) { try store.delete([sample.uuid]) }
        let live = quantitySample(71, start: instant("2024-03-01T08:00:00Z"))
        try store.save([live])
        let afterSave = try store.headAnchor()
        let error = expectHealthLogError(.badInput) { try store.delete([live.uuid, SampleUUID.random()]) }
        #expect(error?.message.hasPrefix("UUID 2: ") == true, "\(error?.message ?? "")")
        #expect(try store.headAnchor() == afterSave && afterSave.seq == head.seq + 1, "all-or-nothing: the live one was not deleted either")
        #expect(try store.result(ReplayRequest(anchor: head)).addedSamples.map(\.uuid) == [live.uuid])
    }

    @Test("Checklist 23 (our analogue of databaseInaccessible): a query on a store that is not there reports the error to its handler with nil arrays and no anchor")
    func item23UnavailableStore() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("missing"))
        let call = try await Self.run({ AnchoredObjectQuery(type: hrType, predicate: nil, anchor: nil, limit: 0, resultsHandler: $0) }, on: store)
        #expect(call.samples == nil && call.deleted == nil && call.anchor == nil)
        #expect((call.error as? HealthLogError)?.code == .noStore)
        // The long-running form reports it to the results handler too, once.
        let log = HandlerLog()
        let live = AnchoredObjectQuery(type: hrType, predicate: nil, anchor: nil, limit: 0) { _, s, d, a, e in
            log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
        }
        live.updateHandler = { _, s, d, a, e in log.record(.init(isResultsHandler: false, samples: s, deleted: d, anchor: a, error: e)) }
        try store.execute(live)
        #expect(await log.wait { !$0.isEmpty })
        #expect(log.all.first?.isResultsHandler == true && (log.all.first?.error as? HealthLogError)?.code == .noStore)
        #expect(!store.exists, "a query creates nothing")
    }

    @Test("Checklist 25: strictStartDate matches exactly when start ∈ [s, e), strictEndDate when end ∈ [s, e); with no option an instantaneous sample at s matches and one at e does not")
    func item25DateBoundaries() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let s = instant("2024-03-01T08:00:00Z"), e = instant("2024-03-01T09:00:00Z")
        let tick = 0.001
        let atS = quantitySample(1, start: s), atE = quantitySample(2, start: e)
        let justBeforeE = quantitySample(3, start: shifted(e, seconds: -tick))
        let endsAtS = quantitySample(4, start: shifted(s, seconds: -60), end: s)
        let endsJustBeforeS = quantitySample(5, start: shifted(s, seconds: -60), end: shifted(s, seconds: -tick))
        let startsAtSEndsAtE = quantitySample(6, start: s, end: e)
        let startsBeforeEEndsAfter = quantitySample(7, start: shifted(e, seconds: -tick), end: shifted(e, seconds: 60))
        let sameInstantOtherOffset = quantitySample(8, start: instant("2024-03-01T10:00:00+02:00"))  // = s
        try store.save([atS, atE, justBeforeE, endsAtS, endsJustBeforeS, startsAtSEndsAtE, startsBeforeEEndsAfter, sameInstantOtherOffset])
        func values(_ options: DateOptions) throws -> [Double] {
            try store.result(ReplayRequest(predicate: .samples(withStart: s, end: e, options: options))).addedSamples.compactMap { ($0 as? QuantitySample)?.quantity.value }
        }
        #expect(try values([]) == [1, 3, 4, 6, 7, 8])
        #expect(try values(.strictStartDate) == [1, 3, 6, 7, 8])
        #expect(try values(.strictEndDate) == [1, 3, 4, 8])
        #expect(try values([.strictStartDate, .strictEndDate]) == [1, 3, 8])
    }
}
