import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Conformance tests for the anchor rules of `docs/events-and-queries.md`, one (or, for rule 9,
/// several) per numbered rule, through the library API. Rules 7 (`restore`) and 8
/// (`compact`) are tested with those commands' tests.
/// The command-line side (exit codes, `replay --follow`) is in
/// `HealthLogCLITests/ConformanceCLITests.swift`; the predicate details of rule 9 are in
/// `ConformancePredicateTests.swift`.
@Suite("Conformance: anchor rules")
struct ConformanceSpecRulesTests {
    /// A log where one append interleaves three types (so a batch holds several type
    /// groups whose lines must be merged back into sequence order), spread over many
    /// batches and segments, with deletes of samples from earlier and the same appends.
    static func mixedLog(_ store: HealthStore) throws -> [any Sample] {
        let base = instant("2024-03-01T00:00:00Z")
        var saved: [any Sample] = []
        for round in 0..<12 {
            var batch: [any Sample] = []
            for k in 0..<6 {
                let t = shifted(base, seconds: Double(round * 3600 + k * 60))
                switch k % 3 {
                case 0: batch.append(quantitySample(Double(60 + k + round), start: t, source: "Watch"))
                case 1: batch.append(quantitySample(Double(100 * k), type: stepType, unit: "count", start: t, end: shifted(t, seconds: 60)))
                default: batch.append(categorySample(.integer(k % 6), start: t, end: shifted(t, seconds: 1800)))
                }
            }
            try store.save(batch)
            saved += batch
            if round % 3 == 2 { try store.delete([saved[saved.count - 8].uuid, saved[round].uuid]) }
        }
        return saved
    }

    @Test("Rule 1 (Checklist 8): results come in ascending sequence order, samples and deleted objects interleaved in one stream and each array of the library's result in that order, the commit order")
    func rule1AscendingOrder() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try Self.mixedLog(store)
        let head = try store.headAnchor().seq
        #expect(try store.verify().segments > 1, "the log should span several segments")

        let raw = try replayLines(store, ReplayRequest(raw: true)).lines
        #expect(raw.map(\.seq) == Array(1...head), "raw replay from 0 is every event, in order")

        for types: Set<String> in [[], [hrType.identifier], [hrType.identifier, sleepType.identifier]] {
            for anchor in [0, 5, head / 2, head - 3] as [UInt64] {
                let request = ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: types)
                let lines = try replayLines(store, request).lines
                #expect(!lines.isEmpty || anchor > 0)
                #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.seq < $1.seq }, "ascending for types \(types) from \(anchor)")
                // The library's arrays keep that order within each array.
                let result = try store.result(request)
                #expect(result.addedSamples.map { "\($0.uuid)" } == lines.filter { !$0.isDelete }.map(\.uuid))
                #expect(result.deletedObjects.map { "\($0.uuid)" } == lines.filter(\.isDelete).map(\.uuid))
            }
        }
        // Interleaving: deleted objects sit between samples, not after them.
        let all = try replayLines(store, ReplayRequest()).lines
        #expect(all.indices.dropLast().contains { all[$0].isDelete && !all[$0 + 1].isDelete })

        // Commit order, not date order: interleaved types in single appends (stored grouped
        // by type within each batch), dates running backwards, deletions out of UUID order.
        let backwards = try ConformanceStore(batchBytes: 400)
        defer { backwards.remove() }
        let base = instant("2024-03-01T08:00:00Z")
        var samples: [any Sample] = []
        for round in 0..<4 {
            let batch: [any Sample] = (0..<6).map { k in
                let t = shifted(base, seconds: Double(-(round * 6 + k) * 60))
                return k % 2 == 0 ? quantitySample(Double(k), start: t) as any Sample : categorySample(.integer(k % 3), start: t)
            }
            try backwards.store.save(batch)
            samples += batch
        }
        let deletions = [samples[20].uuid, samples[1].uuid, samples[14].uuid, samples[7].uuid]
        try backwards.store.delete(Array(deletions[0..<2]))
        try backwards.store.delete(Array(deletions[2...]))
        let rawResult = try backwards.store.result(ReplayRequest(raw: true))
        #expect(rawResult.addedSamples.map(\.uuid) == samples.map(\.uuid))
        #expect(rawResult.deletedObjects.map(\.uuid) == deletions)
        let view = try backwards.store.result(ReplayRequest())
        #expect(view.addedSamples.map(\.uuid) == samples.map(\.uuid).filter { !deletions.contains($0) })
        #expect(view.deletedObjects.map(\.uuid) == deletions)
    }

    @Test("Rule 2 (Checklist 9): HealthKit's view by default (a sample added and deleted after the anchor comes back only as a deleted object, also through a predicate); raw returns every event as recorded")
    func rule2HealthKitViewAndRaw() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        let a = quantitySample(70, start: t), b = quantitySample(71, start: t)
        try store.save([a, b])
        let anchor = try store.headAnchor()
        let c = quantitySample(72, start: t), d = quantitySample(73, start: t, source: "Watch")
        try store.save([c, d])
        try store.delete([b.uuid, d.uuid])

        let view = try store.result(ReplayRequest(anchor: anchor))
        #expect(itemKeys(view) == ["+\(c.uuid)", "-\(b.uuid)", "-\(d.uuid)"])
        let fromStart = try store.result(ReplayRequest())
        #expect(itemKeys(fromStart) == ["+\(a.uuid)", "+\(c.uuid)", "-\(b.uuid)", "-\(d.uuid)"])

        // Raw: every event after the anchor, adds of deleted samples included.
        let raw = try replayLines(store, ReplayRequest(anchor: anchor, raw: true)).lines
        #expect(raw.map { ($0.isDelete ? "-" : "+") + $0.uuid } == ["+\(c.uuid)", "+\(d.uuid)", "-\(b.uuid)", "-\(d.uuid)"])
        #expect(raw.map(\.seq) == [3, 4, 5, 6])
        var descriptor = AnchoredObjectQueryDescriptor(anchor: anchor)
        descriptor.returnsEveryEvent = true
        let rawResult = try await descriptor.result(for: store)
        #expect(itemKeys(rawResult) == ["+\(c.uuid)", "+\(d.uuid)", "-\(b.uuid)", "-\(d.uuid)"])
        descriptor.returnsEveryEvent = false
        #expect(itemKeys(try await descriptor.result(for: store)) == itemKeys(view))
        // Through a predicate that picks d by its source: still only its deleted object.
        let watch = try await AnchoredObjectQueryDescriptor(types: [hrType], predicate: .sources(["Watch"]), anchor: anchor).result(for: store)
        #expect(!watch.addedSamples.contains { $0.uuid == d.uuid })
        #expect(watch.deletedObjects.map(\.uuid) == [d.uuid])

        // From just before d's add: d comes back only as its deleted object.
        #expect(itemKeys(try store.result(ReplayRequest(anchor: QueryAnchor(fromValue: 3)))) == ["-\(b.uuid)", "-\(d.uuid)"])
        // And before the deletes happened, a and b were live samples.
        #expect(try store.result(ReplayRequest(anchor: .beginning, raw: true)).addedSamples.map(\.uuid) == [a.uuid, b.uuid, c.uuid, d.uuid])
    }

    @Test("Rule 3 (Checklist 11): a deleted object carries UUID, type, start, end, source, device and only the sync identifier and version, and those only when the sample had them; predicates apply through those fields and let it through value, category and other-metadata predicates of its kind")
    func rule3DeletedObjectFields() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let start = instant("2024-03-01T09:00:00.250+01:00"), end = instant("2024-03-01T09:30:00.5+01:00")
        let synced = quantitySample(
            120, start: start, end: end, source: "Watch", device: "Watch7,1",
            metadata: [syncIDKey: "abc", syncVersionKey: 3, "HKMetadataKeyHeartRateMotionContext": 1, "Other": "x"])
        let plain = categorySample(.name("HKCategoryValueSleepAnalysisAsleepCore"), start: start, end: end, source: "Phone")
        try store.save([synced, plain])
        let anchor = try store.headAnchor()
        try store.delete([synced.uuid, plain.uuid])

        let result = try store.result(ReplayRequest(anchor: anchor))
        #expect(result.addedSamples.isEmpty)
        let deleted = result.deletedObjects
        try #require(deleted.count == 2)
        #expect(deleted[0].uuid == synced.uuid && deleted[0].sampleType == hrType)
        #expect(deleted[0].start.microseconds == start.microseconds && deleted[0].end.microseconds == end.microseconds)
        #expect(deleted[0].start.offsetMinutes == 60 && deleted[0].end.offsetMinutes == 60, "the UTC offset is kept")
        #expect(deleted[0].source == "Watch" && deleted[0].device == "Watch7,1")
        #expect(deleted[0].metadata == [syncIDKey: "abc", syncVersionKey: 3], "only the sync identifier and version")
        #expect(deleted[1].uuid == plain.uuid && deleted[1].sampleType == sleepType && deleted[1].source == "Phone" && deleted[1].device == nil)
        #expect(deleted[1].metadata.isEmpty, "no sync metadata when the sample had none")

        func deletedUUIDs(_ predicate: QueryPredicate, types: Set<String> = []) throws -> [SampleUUID] {
            try store.result(ReplayRequest(anchor: anchor, types: types, predicate: predicate)).deletedObjects.map(\.uuid)
        }
        // Fields a deleted object carries: the predicate applies.
        #expect(try deletedUUIDs(.all, types: [hrType.identifier]) == [synced.uuid])
        #expect(try deletedUUIDs(.sources(["Watch"])) == [synced.uuid])
        #expect(try deletedUUIDs(.sources(["Nobody"])) == [])
        #expect(try deletedUUIDs(.devices(["Watch7,1"])) == [synced.uuid])
        #expect(try deletedUUIDs(.uuids([plain.uuid])) == [plain.uuid])
        #expect(try deletedUUIDs(.samples(withStart: instant("2024-03-01T08:10:00Z"), end: nil)) == [synced.uuid, plain.uuid])
        #expect(try deletedUUIDs(.samples(withStart: instant("2024-03-01T08:31:00Z"), end: nil)) == [], "dates are the deleted sample's")
        #expect(try deletedUUIDs(.samples(withStart: nil, end: instant("2024-03-01T08:00:00Z"))) == [])
        #expect(try deletedUUIDs(.metadata(key: syncIDKey)) == [synced.uuid], "the sync identifier travels with the deletion")
        #expect(try deletedUUIDs(.metadata(key: syncIDKey, equals: "abc")) == [synced.uuid])
        #expect(try deletedUUIDs(.metadata(key: syncIDKey, equals: "zzz")) == [])
        #expect(try deletedUUIDs(.metadata(key: syncVersionKey, equals: "3")) == [synced.uuid])
        // Fields it does not carry: it passes when its type is of the predicate's kind.
        #expect(try deletedUUIDs(.quantity(.greaterThan, 1000)) == [synced.uuid], "value predicate: the quantity deletion passes, the category one not")
        #expect(try deletedUUIDs(.categoryValues([.integer(5)])) == [plain.uuid], "category predicate: the category deletion passes")
        #expect(try deletedUUIDs(.metadata(key: "HKMetadataKeyHeartRateMotionContext", equals: "2")) == [synced.uuid, plain.uuid])
        #expect(try deletedUUIDs(.metadata(key: "Missing")) == [synced.uuid, plain.uuid])
        // And the samples themselves, from before the deletes, still obey those predicates.
        let live = try store.result(ReplayRequest(anchor: .beginning, predicate: .quantity(.greaterThan, 1000), raw: true))
        #expect(live.addedSamples.isEmpty && live.deletedObjects.map(\.uuid) == [synced.uuid])
        // A sample with metadata but no sync identifier leaves no metadata on its deleted object.
        let unsynced = quantitySample(71, start: start, metadata: ["HKMetadataKeyWasUserEntered": true, "note": "x"])
        try store.save([unsynced])
        let beforeDelete = try store.headAnchor()
        try store.delete([unsynced.uuid])
        #expect(try store.result(ReplayRequest(anchor: beforeDelete)).deletedObjects.map(\.metadata) == [[:]])
    }

    @Test("Rule 4: the limit counts samples and deleted objects together; the new anchor is the last delivered item's sequence number, or the input position when nothing is delivered; paging returns every item exactly once, in order")
    func rule4LimitAndPaging() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try ConformanceSpecRulesTests.mixedLog(store)
        let head = try store.headAnchor()
        let predicates: [(Set<String>, QueryPredicate)] = [
            ([], .all), ([hrType.identifier], .all), ([sleepType.identifier, stepType.identifier], .all),
            ([], .samples(withStart: instant("2024-03-01T03:00:00Z"), end: instant("2024-03-01T08:00:00Z"))),
            ([], .quantity(.greaterThan, 65)),
        ]
        for (types, predicate) in predicates {
            for from in [0, head.seq / 2] as [UInt64] {
                let whole = try replayLines(store, ReplayRequest(anchor: QueryAnchor(fromValue: from), types: types, predicate: predicate)).lines
                for limit in [2, 7, 1000] {
                    var anchor = QueryAnchor(fromValue: from)
                    var paged: [ReplayedLine] = []
                    var pages = 0
                    while true {
                        let (lines, outcome) = try replayLines(store, ReplayRequest(anchor: anchor, types: types, predicate: predicate, limit: limit))
                        pages += 1
                        #expect(lines.count <= limit)
                        #expect(outcome.delivered == lines.count)
                        if let last = lines.last {
                            #expect(outcome.newAnchor.seq == last.seq, "new anchor = last item delivered")
                        } else {
                            #expect(outcome.newAnchor.seq == anchor.seq, "nothing delivered: same position")
                        }
                        // The library's result agrees and counts both arrays against the limit.
                        if pages <= 2 {
                            let result = try store.result(ReplayRequest(anchor: anchor, types: types, predicate: predicate, limit: limit))
                            #expect(result.addedSamples.count + result.deletedObjects.count == lines.count)
                            #expect(result.newAnchor == outcome.newAnchor)
                        }
                        paged += lines
                        if lines.isEmpty { break }
                        anchor = outcome.newAnchor
                        if pages > 500 { Issue.record("paging does not end"); return }
                    }
                    #expect(paged == whole, "paging \(types) \(predicate) from \(from) by \(limit)")
                }
            }
        }
        // The limit counts both kinds: a page of 2 can hold one sample and one deleted object.
        let mixed = try replayLines(store, ReplayRequest(anchor: QueryAnchor(fromValue: 0), limit: 0)).lines
        let boundary = try #require(mixed.firstIndex { $0.isDelete })
        let page = try replayLines(store, ReplayRequest(anchor: QueryAnchor(fromValue: mixed[boundary - 1].seq - 1), limit: 2)).lines
        #expect(page.map(\.isDelete) == [false, true])
        // An empty page from a store token returns that very token.
        let same = try store.result(ReplayRequest(anchor: head))
        #expect(same.newAnchor == head && same.newAnchor.token == head.token)
    }

    @Test("Rule 5 (Checklist 7): re-running a query with the same anchor and no new writes returns the same result")
    func rule5Repeatable() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try ConformanceSpecRulesTests.mixedLog(store)
        for request in [
            ReplayRequest(anchor: QueryAnchor(fromValue: 9)), ReplayRequest(anchor: QueryAnchor(fromValue: 9), raw: true),
            ReplayRequest(anchor: QueryAnchor(fromValue: 20), types: [hrType.identifier], limit: 3),
            ReplayRequest(predicate: .sources(["Watch"])),
        ] {
            let first = try replayLines(store, request)
            // A refused append in between writes nothing, so it changes nothing either.
            #expect(throws: HealthLogError.self) { try store.append(ndjson: Array("{\"type\":\"HKQuantityTypeIdentifierHeartRate\"}\n".utf8)) }
            let second = try replayLines(store, request)
            #expect(first.lines == second.lines)
            #expect(first.outcome == second.outcome)
            #expect(itemKeys(try store.result(request)) == itemKeys(first.lines))
        }
        for descriptor in [
            AnchoredObjectQueryDescriptor(types: [sleepType], anchor: QueryAnchor(fromValue: 4), limit: 4),
            AnchoredObjectQueryDescriptor(anchor: QueryAnchor(fromValue: 5)),
            AnchoredObjectQueryDescriptor(types: [stepType], predicate: .quantity(.greaterThanOrEqual, 30), anchor: nil, limit: 2),
        ] {
            let a = try await descriptor.result(for: store), b = try await descriptor.result(for: store)
            #expect(itemKeys(a) == itemKeys(b) && a.newAnchor == b.newAnchor && !itemKeys(a).isEmpty)
            #expect(a.addedSamples.map(\.description) == b.addedSamples.map(\.description))
            #expect(a.deletedObjects == b.deletedObjects)
        }
    }

    @Test("Rule 6 (Checklist 19, a deliberate deviation from HealthKit): an anchor from another store, malformed, or ahead of the head is refused (anchorRefused), never read as the beginning (nil) nor clamped to the head")
    func rule6RefusedAnchors() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let other = HealthStore(directory: fixture.dir.file("other"), options: store.options)
        try store.save([quantitySample(70, start: instant("2024-03-01T08:00:00Z"))])
        try other.save([quantitySample(70, start: instant("2024-03-01T08:00:00Z")), quantitySample(71, start: instant("2024-03-01T08:00:00Z"))])
        let head = try store.headAnchor()
        let foreign = try other.headAnchor()
        let foreignZero = QueryAnchor(seq: 0, storeTag: foreign.storeTag)
        let ahead = QueryAnchor(seq: head.seq + 1, storeTag: head.storeTag)

        for anchor in [foreign, foreignZero, try QueryAnchor(token: foreign.token)] {
            let error = expectHealthLogError(.anchorRefused) { try store.result(ReplayRequest(anchor: anchor)) }
            #expect(error?.message.contains("another store") == true)
        }
        for anchor in [ahead, QueryAnchor(fromValue: head.seq + 1), QueryAnchor(fromValue: .max)] {
            let error = expectHealthLogError(.anchorRefused) { try store.replay(ReplayRequest(anchor: anchor)) { _ in } }
            #expect(error?.message.contains("past the store's head") == true)
        }
        // Malformed tokens: garbage, a flipped character (checksum), a truncated token, negative and non-decimal numbers.
        var flipped = Array(head.token)
        flipped[5] = flipped[5] == "A" ? "B" : "A"
        for token in ["", "garbage!", "-1", "1.5", "0x10", String(flipped), String(head.token.dropLast(2)), head.token + "AA", "99999999999999999999999"] {
            expectHealthLogError(.anchorRefused) { try QueryAnchor(token: token) }
        }
        // The async and handler forms refuse too, with or without a limit.
        for anchor in [foreign, ahead] {
            await #expect(throws: HealthLogError.self) { try await AnchoredObjectQueryDescriptor(anchor: anchor).result(for: store) }
            await #expect(throws: HealthLogError.self) { try await AnchoredObjectQueryDescriptor(anchor: anchor, limit: 5).result(for: store) }
            let log = HandlerLog()
            let query = AnchoredObjectQuery(type: nil, predicate: nil, anchor: anchor, limit: 0) { _, s, d, a, e in
                log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
            }
            try store.execute(query)
            #expect(await log.wait { !$0.isEmpty })
            let call = try #require(log.all.first)
            #expect(call.samples == nil && call.deleted == nil && call.anchor == nil, "no results: neither everything (nil) nor the head (clamped)")
            #expect((call.error as? HealthLogError)?.code == .anchorRefused)
        }
        // And the store's own anchors are fine.
        #expect(try store.result(ReplayRequest(anchor: head)).newAnchor == head)
    }

    @Test("Rule 10: a long-running query (update handler) first delivers everything after the anchor, then each later matching event any writer appends, with no gap, no duplicate and strictly increasing anchors, until stopped")
    func rule10LongRunningUpdateHandler() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let base = instant("2024-03-01T08:00:00Z")
        for i in 0..<10 { try store.save([quantitySample(Double(60 + i), start: shifted(base, seconds: Double(i)))]) }
        let anchor = QueryAnchor(fromValue: 4)
        let log = HandlerLog()
        let query = AnchoredObjectQuery(type: hrType, predicate: nil, anchor: anchor, limit: 0) { _, s, d, a, e in
            log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
        }
        query.updateHandler = { _, s, d, a, e in log.record(.init(isResultsHandler: false, samples: s, deleted: d, anchor: a, error: e)) }
        // Another writer appends (heart rates, other types, deletes) while the query starts
        // and runs, so some appends race the catch-up/live boundary.
        let writer = BackgroundJob {
            for i in 0..<30 {
                let t = shifted(base, seconds: Double(100 + i))
                try store.save([quantitySample(Double(i), start: t), quantitySample(5, type: stepType, unit: "count", start: t)])
                if i % 7 == 3 {
                    let victim = try store.result(ReplayRequest(types: [hrType.identifier])).addedSamples[i / 2].uuid
                    try store.delete([victim])
                }
            }
        }
        try store.execute(query)
        #expect(await writer.finished())
        #expect(writer.error == nil)
        // Everything after the anchor, in HealthKit's view as of now, except that a sample
        // delivered live and deleted later comes back twice (sample, then deleted object).
        let rawAfter = try replayLines(store, ReplayRequest(anchor: anchor, types: [hrType.identifier], raw: true)).lines
        let head = try #require(rawAfter.last).seq
        #expect(await log.wait { $0.last?.anchor?.seq == head })
        store.stop(query)

        let calls = log.all
        #expect(calls.allSatisfy { $0.error == nil })
        #expect(calls.first?.isResultsHandler == true && calls.dropFirst().allSatisfy { !$0.isResultsHandler }, "first results, then updates")
        let anchors = calls.compactMap(\.anchor).map(\.seq)
        #expect(anchors.count == calls.count)
        #expect(zip(anchors, anchors.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing anchors: \(anchors)")
        #expect(calls.dropFirst().allSatisfy { ($0.samples?.count ?? 0) + ($0.deleted?.count ?? 0) > 0 }, "updates are never empty")
        // No gap, no duplicate: each event after the anchor arrives once, unless it was a
        // sample added before the query's first pass and deleted before it (HealthKit's
        // view then holds only the deletion).
        let delivered = log.keys
        #expect(Set(delivered).count == delivered.count, "no duplicate")
        let expected = rawAfter.map { ($0.isDelete ? "-" : "+") + $0.uuid }
        let missing = Set(expected).subtracting(delivered)
        let deletedUUIDs = Set(rawAfter.filter(\.isDelete).map(\.uuid))
        #expect(missing.allSatisfy { $0.hasPrefix("+") && deletedUUIDs.contains(String($0.dropFirst())) }, "no gap: \(missing)")
        #expect(Set(delivered).isSubset(of: Set(expected)), "only heart rates after the anchor")
        // Each call's anchor is the sequence number of the last item it delivered.
        for call in calls {
            let items = Set((call.samples ?? []).map { "+\($0.uuid)" } + (call.deleted ?? []).map { "-\($0.uuid)" })
            let lastSeq = rawAfter.filter { items.contains(($0.isDelete ? "-" : "+") + $0.uuid) }.map(\.seq).max()
            #expect(lastSeq != nil && call.anchor?.seq == lastSeq)
        }
    }

    @Test("Rule 10: the async sequence delivers the catch-up first, then live changes, with increasing anchors, and stops when the consumer stops")
    func rule10AsyncSequence() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let base = instant("2024-03-01T08:00:00Z")
        let early = (0..<5).map { quantitySample(Double($0), start: shifted(base, seconds: Double($0))) }
        try store.save(early)
        let descriptor = AnchoredObjectQueryDescriptor(types: [hrType], anchor: QueryAnchor(fromValue: 2))
        let late = (0..<12).map { quantitySample(Double(100 + $0), start: shifted(base, seconds: Double(100 + $0))) }
        let consumer = Task {
            var results: [QueryResult] = []
            var writer: BackgroundJob?
            for try await result in descriptor.results(for: store) {
                results.append(result)
                if writer == nil {
                    writer = BackgroundJob {
                        for sample in late { try store.save([sample, quantitySample(1, type: stepType, unit: "count", start: base)]) }
                        try store.delete([early[4].uuid])
                    }
                }
                if results.flatMap(\.deletedObjects).count == 1 { break }
            }
            return results
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(120))
            consumer.cancel()
        }
        let results = try await consumer.value
        watchdog.cancel()
        try #require(!results.isEmpty)
        #expect(results[0].addedSamples.map(\.uuid) == early[2...].map(\.uuid), "the first element is the catch-up")
        let added = results.flatMap(\.addedSamples).map(\.uuid)
        #expect(added == early[2...].map(\.uuid) + late.map(\.uuid), "then every later heart rate once, in order")
        #expect(results.flatMap(\.deletedObjects).map(\.uuid) == [early[4].uuid])
        let anchors = results.map(\.newAnchor.seq)
        #expect(zip(anchors, anchors.dropFirst()).allSatisfy { $0 < $1 })
        #expect(anchors.last == (try store.headAnchor()).seq)
    }

    @Test("Rule 10 (Checklist 14): a limit together with an update handler (or a long-running sequence or follow) is rejected at execute, as in HealthKit; without the handler the same query runs")
    func rule10LimitRejected() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        try store.save([quantitySample(70, start: instant("2024-03-01T08:00:00Z"))])
        for limit in [1, 5, 100] {
            let log = HandlerLog()
            let query = AnchoredObjectQuery(type: hrType, predicate: nil, anchor: nil, limit: limit) { _, s, d, a, e in
                log.record(.init(isResultsHandler: true, samples: s, deleted: d, anchor: a, error: e))
            }
            query.updateHandler = { _, _, _, _, _ in Issue.record("a rejected query delivered updates") }
            let error = expectHealthLogError(.badUsage) { try store.execute(query) }
            #expect(error?.message.contains("limit") == true)
            // Rejected at configuration: the same query without the handler is still executable.
            #expect(log.all.isEmpty)
            query.updateHandler = nil
            try store.execute(query)
            #expect(await log.wait { !$0.isEmpty })
            #expect(log.all.count == 1 && log.all.first?.samples?.count == 1)
        }

        let stream = AnchoredObjectQueryDescriptor(types: [hrType], limit: 5).results(for: store)
        do {
            for try await _ in stream { Issue.record("a limited long-running sequence delivered results") }
            Issue.record("a limited long-running sequence ended without an error")
        } catch let error as HealthLogError {
            #expect(error.code == .badUsage)
        }
        let stop = try StopSignal()
        expectHealthLogError(.badUsage) { try store.follow(ReplayRequest(limit: 1), until: stop, deliver: { _ in }, afterBatch: { _ in }) }
    }

    @Test("Rule 10: follow returns once stopped, with the anchor of the last item delivered, after calling afterBatch for the catch-up and each live batch")
    func rule10FollowStops() async throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let base = instant("2024-03-01T08:00:00Z")
        try store.save([quantitySample(1, start: base), quantitySample(2, start: base)])
        let stop = try StopSignal()
        let seen = HandlerLog()
        let returned = WatchedValue<QueryAnchor?>(nil)
        let follower = BackgroundJob {
            let last = try store.follow(ReplayRequest(anchor: QueryAnchor(fromValue: 1), types: [hrType.identifier]), until: stop, deliver: { _ in }) { outcome in
                seen.record(.init(isResultsHandler: false, samples: nil, deleted: nil, anchor: outcome.newAnchor, error: nil))
            }
            returned.update { $0 = last }
        }
        #expect(await seen.wait { $0.count == 1 }, "the catch-up batch")
        #expect(seen.all.first?.anchor?.seq == 2)
        try store.save([quantitySample(1, type: stepType, unit: "count", start: base)])  // not matching: no batch
        try store.save([quantitySample(3, start: base)])
        #expect(await seen.wait { $0.count == 2 })
        #expect(seen.all.last?.anchor?.seq == 4, "the step count was skipped, the heart rate delivered")
        stop.stop()
        #expect(await follower.finished())
        #expect(follower.error == nil)
        #expect(returned.value?.seq == 4)
        #expect(seen.all.map { $0.anchor!.seq } == [2, 4])
    }
}
