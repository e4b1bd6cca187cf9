import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An append prepares its lines in chunks of about a MiB on background threads
/// (``LinePreparer``) and stores them in input order: inputs of several chunks store what
/// a line-by-line append would, from a mapped file, a pipe or memory alike, and the line
/// reported is the first one refused, whichever chunk it lies in and whichever stage
/// refuses it.
@Suite("Appends prepared in parallel")
struct ParallelAppendTests {
    /// Lines enough for several chunks (about 4 MB).
    static let lineCount = 25_000

    static func lines() -> [String] {
        (1...lineCount).map { CorruptionFixture.heartRate($0) }
    }

    /// A pipe whose other end a thread of its own fills with `bytes`, then closes.
    static func pipe(_ bytes: [UInt8]) -> Pipe {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let data = Data(bytes)
        Thread.detachNewThread {
            writer.write(data)
            try? writer.close()
        }
        return pipe
    }

    static func options() -> StoreOptions {
        var options = StoreOptions()
        options.sync = false
        return options
    }

    /// The message an append refusing `line` alone gives, numbered `number` instead of 1.
    static func message(of line: String, number: Int) throws -> String {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("alone"), options: options())
        let error = try #require(throws: HealthLogError.self) { try store.append(ndjson: CorruptionFixture.ndjson([line])) }
        #expect(error.message.hasPrefix("line 1: "))
        return "line \(number): " + error.message.dropFirst("line 1: ".count)
    }

    /// The error appending `lines` gives; checks nothing was written.
    static func refusal(_ lines: [String]) throws -> HealthLogError {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: options())
        let error = try #require(throws: HealthLogError.self) { try store.append(ndjson: CorruptionFixture.ndjson(lines)) }
        #expect(!store.exists)
        return error
    }

    @Test("A malformed line chunks into the input is reported by its number, as it would be alone, and nothing is written")
    func malformedLineInALaterChunk() throws {
        var lines = Self.lines()
        let bad = #"{"uuid":"not-a-uuid","type":"HKQuantityTypeIdentifierHeartRate"}"#
        lines[19_999] = bad
        #expect(try Self.refusal(lines).message == (try Self.message(of: bad, number: 20_000)))
    }

    @Test("A line refused for what an earlier line did is reported before a malformed line in a later chunk")
    func stateErrorBeforeLaterMalformedLine() throws {
        var lines = Self.lines()
        lines[99] = CorruptionFixture.heartRate(7)
        lines[19_999] = "{not json"
        let error = try Self.refusal(lines)
        #expect(error.message == "line 100: field 'uuid': UUID \(CorruptionFixture.uuid(7).uppercased()) is added earlier in this input")
    }

    @Test("A malformed line in an early chunk is reported before a repeated UUID in a later one")
    func malformedLineBeforeLaterStateError() throws {
        var lines = Self.lines()
        lines[49] = "{not json"
        lines[19_999] = CorruptionFixture.heartRate(7)
        #expect(try Self.refusal(lines).message == (try Self.message(of: "{not json", number: 50)))
    }

    @Test("A file (mapped), a pipe and bytes in memory of several chunks store the same lines")
    func sourcesStoreTheSame() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var lines = Self.lines()
        lines.insert("", at: 3_000)
        lines[9_000] += "\r"
        lines += (1...2_000).map { CorruptionFixture.delete($0 * 7) }
        var bytes = CorruptionFixture.ndjson(lines)
        bytes.removeLast()
        let memory = HealthStore(directory: dir.file("memory"), options: Self.options())
        _ = try memory.append(ndjson: bytes)

        let path = dir.file("input.ndjson")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = HealthStore(directory: dir.file("file"), options: Self.options())
        _ = try file.append([LineReader(fileDescriptor: fd, name: "input.ndjson")])

        let pipe = Self.pipe(bytes)
        let piped = HealthStore(directory: dir.file("pipe"), options: Self.options())
        _ = try piped.append([LineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: nil)])

        let expected = try CorruptionFixture.replay(memory, raw: true)
        #expect(expected.count == Self.lineCount + 2_000)
        #expect(try CorruptionFixture.replay(file, raw: true) == expected)
        #expect(try CorruptionFixture.replay(piped, raw: true) == expected)
    }

    @Test("From a pipe, a line past the limit after chunks of lines is refused by its number, and a line at the limit is read")
    func pipeHoldsTheLineLimit() throws {
        let limit = LineReader.maxLineLength
        for (extra, refused) in [(1, true), (0, false)] {
            let bytes = CorruptionFixture.ndjson(Array(Self.lines().prefix(10_000))) + [UInt8](repeating: 0x78, count: limit + extra) + [10, 0x7A, 10]
            let pipe = Self.pipe(bytes)
            var reader = LineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: nil)
            var lengths: [Int] = []
            let result = Result { try reader.forEachLine { line, number in
                #expect(number == lengths.count + 1)
                lengths.append(line.count)
            } }
            if refused {
                guard case .failure(let error as HealthLogError) = result else {
                    Issue.record("a line of \(limit + extra) bytes from a pipe was read")
                    continue
                }
                #expect(error.message == "line 10001: longer than \(limit) bytes")
            } else {
                #expect(lengths.count == 10_002 && lengths[10_000] == limit && lengths[10_001] == 1)
            }
            try? pipe.fileHandleForReading.close()
        }
    }

    @Test("The writer's per-chunk UUID positions answer as a dictionary would, for sequential and random UUIDs, past their capacity")
    func uuidPositionsMatchADictionary() {
        var random = SeededRandom(state: 3)
        var positions = UUIDPositions(capacity: 16)
        var uuids: [SampleUUID] = []
        var model: [SampleUUID: Int] = [:]
        for k in 0..<5_000 {
            let uuid = k % 2 == 0 ? SampleUUID(high: 0x4000, low: UInt64(k / 2)) : SampleUUID(high: random.next(), low: random.next())
            #expect(positions.insertIfAbsent(uuid, at: uuids.count, in: uuids) == nil)
            model[uuid] = uuids.count
            uuids.append(uuid)
            if k % 499 == 0 {
                let known = uuids[random.int(0...uuids.count - 1)]
                #expect(positions.insertIfAbsent(known, at: uuids.count, in: uuids) == model[known])
            }
        }
        #expect(positions.count == uuids.count)
        for (uuid, at) in model { #expect(positions.position(of: uuid, in: uuids) == at) }
        #expect(positions.position(of: SampleUUID(high: 0x4000, low: 1 << 40), in: uuids) == nil)
    }

    @Test("A probe's slot takes the UUID it missed as an insert would, and a probe made before the table changed is refused")
    func uuidPositionsProbeThenInsert() {
        var random = SeededRandom(state: 5)
        var positions = UUIDPositions(capacity: 16)
        var uuids: [SampleUUID] = []
        for k in 0..<3_000 {
            let uuid = k % 3 == 0 ? SampleUUID(high: 0x77, low: UInt64(k)) : SampleUUID(high: random.next(), low: random.next())
            let probe = positions.probe(uuid, in: uuids)
            #expect(probe.position == nil)
            if k % 10 == 0 {
                // Another UUID recorded in between: the probe's slot may be taken.
                let other = SampleUUID(high: random.next(), low: random.next())
                #expect(positions.insertIfAbsent(other, at: uuids.count, in: uuids) == nil)
                uuids.append(other)
                let staleTaken = positions.insert(probe, at: uuids.count)
                #expect(!staleTaken)
                #expect(positions.insertIfAbsent(uuid, at: uuids.count, in: uuids) == nil)
            } else if !positions.insert(probe, at: uuids.count) {
                // Full: the table grows on the insert instead.
                #expect(positions.insertIfAbsent(uuid, at: uuids.count, in: uuids) == nil)
            }
            uuids.append(uuid)
            #expect(positions.probe(uuid, in: uuids).position == uuids.count - 1)
        }
        #expect(positions.count == uuids.count)
        for (at, uuid) in uuids.enumerated() { #expect(positions.position(of: uuid, in: uuids) == at) }
    }

    @Test("Folding a large chunk of events sorts them by UUID as a comparison sort does, random or sequential")
    func combineSortsLargeChunks() {
        var random = SeededRandom(state: 11)
        var events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
        for seq in UInt64(1)...20_000 {
            let uuid = seq % 3 == 0 ? SampleUUID(high: 0x4000, low: seq) : SampleUUID(high: random.next(), low: random.next())
            events.append((uuid, seq, false))
            if seq % 5 == 0 { events.append((uuid, seq + 100_000, true)) }
        }
        let entries = UUIDRunSet.combine(events)
        #expect(entries.map(\.uuid) == Set(events.map(\.uuid)).sorted())
        #expect(entries.allSatisfy { $0.addSeq != 0 && ($0.deleteSeq == 0 || $0.deleteSeq == $0.addSeq + 100_000) })
        #expect(entries.filter { $0.deleteSeq != 0 }.count == 4_000)
    }
}
