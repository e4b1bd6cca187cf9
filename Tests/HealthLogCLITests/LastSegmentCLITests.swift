import Foundation
@testable import HealthLog
import HealthLogTestSupport
import Testing

/// The last segment is taken on its sidecar index's word only when the index, the
/// checkpoint and the file end at the same batch. Tried from the
/// outside on the real binary, with the state made by a killed writer or by file surgery:
/// a stale or foreign sidecar, bytes past it, a cut segment or a damaged last header all
/// behave as a walk of every header does — no acknowledged event lost, a torn tail cut by
/// the next writer, damage an exit 1 naming the file and offset.
@Suite("The last segment and its sidecar")
struct LastSegmentCLITests {
    /// A store of three synced appends, with several segments, the last append in the
    /// segment the one before it ended in.
    private struct Scene {
        let dir: TemporaryDirectory
        let store: String
        /// The last segment file and its sidecar.
        let last: String
        let sidecar: String
        /// Every file as the second append left it.
        let before: [String: [UInt8]]
        /// The last batch of the store.
        let lastBatch: BatchRef

        init() throws {
            dir = try TemporaryDirectory()
            store = dir.file("store")
            var image: [String: [UInt8]] = [:]
            for range in [1...40, 41...80, 81...82] {
                image = try ByteSurgery.image(of: store)
                let result = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(range), environment: CrashTests.sizes)
                try #require(result.status == 0, "\(result.stderr)")
            }
            before = image
            let snapshot = try LogSnapshot(StoreLayout(directory: store), usingIndexes: false)
            try #require(snapshot.segments.count >= 3)
            lastBatch = try #require(try snapshot.allBatches().last)
            try #require(lastBatch.segment == snapshot.segments.count - 1)
            last = store + "/" + snapshot.segments[lastBatch.segment].displayPath
            sidecar = String(last.dropLast(".log.lz4".count)) + ".idx"
            try #require(before[String(sidecar.dropFirst(store.count + 1))] != nil, "the last append went on in the segment before it")
        }

        func run(_ arguments: [String], stdin: String = "") throws -> BuiltProgram.Result {
            try HealthLogBinary.run(["--store", store] + arguments, stdin: stdin, environment: CrashTests.sizes)
        }

        /// The file `path` (absolute) as the second append left it.
        func old(_ path: String) throws -> [UInt8] {
            try #require(before[String(path.dropFirst(store.count + 1))])
        }
    }

    @Test("A writer killed after its checkpoint, before its sidecar: readers and the next writer see every event, and nothing is cut")
    func killedBeforeSidecar() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...40), environment: CrashTests.sizes).status == 0)
        let killed = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(41...42), environment: CrashTests.sizes, injecting: "kill:checkpoint-written")
        try #require(killed.wasSignalled)
        let replayed = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(replayed.status == 0 && Events.seqs(replayed.stdout) == Array(1...42), "\(replayed.stderr)")
        let rare = try HealthLogBinary.run(["--store", store, "replay", "--from", "40", "--type", "HeartRate"])
        #expect(rare.status == 0 && Events.seqs(rare.stdout) == [42], "\(rare.stdout)\(rare.stderr)")
        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(43...44), environment: CrashTests.sizes)
        #expect(next.status == 0 && !next.stderr.contains("torn tail"), "\(next.stderr)")
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay"]).stdout) == Array(1...44))
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    /// What is done to the last segment or its sidecar.
    enum Surgery: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The sidecar as the append before the last left it.
        case oldSidecar
        /// The sidecar and the checkpoint as the append before the last left them: a crash
        /// after the segment was written.
        case oldSidecarAndCheckpoint
        /// Junk after the last batch.
        case junkAppended
        /// A copy of the last batch after it.
        case lastBatchRepeated
        /// The last batch's frames cut by one byte.
        case cutInLastFrame
        /// The last batch header's magic, a payload byte, and its own checksum flipped.
        case magicFlipped, payloadFlipped, headerChecksumFlipped
        var testDescription: String { rawValue }

        /// Whether it damages acknowledged events.
        var isDamage: Bool { [.cutInLastFrame, .magicFlipped, .payloadFlipped, .headerChecksumFlipped].contains(self) }
    }

    @Test("Every stale, overlong, cut or damaged last segment reads as a walk of its headers reads it", arguments: Surgery.allCases)
    func surgery(_ surgery: Surgery) throws {
        let scene = try Scene()
        defer { scene.dir.remove() }
        let all = try scene.run(["replay"]).stdout
        try #require(Events.seqs(all) == Array(1...82))
        let batch = scene.lastBatch
        let payloadEnd = batch.groupOffsets[0]
        var added = 0
        switch surgery {
        case .oldSidecar:
            try ByteSurgery.write(try scene.old(scene.sidecar), to: scene.sidecar)
        case .oldSidecarAndCheckpoint:
            try ByteSurgery.write(try scene.old(scene.sidecar), to: scene.sidecar)
            try ByteSurgery.write(try scene.old(scene.store + "/checkpoint"), to: scene.store + "/checkpoint")
        case .junkAppended:
            added = 37
            try ByteSurgery.append([UInt8](repeating: 0x5A, count: added), to: scene.last)
        case .lastBatchRepeated:
            let bytes = Array(try ByteSurgery.read(scene.last)[batch.offset..<batch.end])
            added = bytes.count
            try ByteSurgery.append(bytes, to: scene.last)
        case .cutInLastFrame: try ByteSurgery.cut(scene.last, bytes: 1)
        case .magicFlipped: try ByteSurgery.flip(scene.last, at: batch.offset + 1)
        case .payloadFlipped: try ByteSurgery.flip(scene.last, at: batch.offset + 8 + 20, mask: 0x04)
        case .headerChecksumFlipped: try ByteSurgery.flip(scene.last, at: payloadEnd - 2, mask: 0x01)
        }
        let damaged = try ByteSurgery.image(of: scene.store)
        if surgery.isDamage {
            let location = "\(scene.last.dropFirst(scene.store.count + 1)) at byte \(batch.offset)"
            for command in [["replay"], ["replay", "--from", "80", "--type", "HeartRate"], ["anchor"], ["stats"], ["append"]] {
                let result = try scene.run(command, stdin: Events.lines(90...91))
                #expect(result.status == 1, "\(command): exit \(result.status)\n\(result.stderr)")
                #expect(result.stderr.contains(location) && result.stderr.contains("damage"), "\(command): \(result.stderr)")
            }
            #expect(try ByteSurgery.image(of: scene.store) == damaged, "a command changed the damaged store")
            #expect(try scene.run(["verify"]).status == 1)
            return
        }
        let replayed = try scene.run(["replay"])
        #expect(replayed.status == 0 && replayed.stdout == all, "\(replayed.stderr)")
        let rare = try scene.run(["replay", "--from", "80", "--type", "HeartRate"])
        #expect(rare.status == 0 && Events.seqs(rare.stdout) == [81], "\(rare.stdout)\(rare.stderr)")
        #expect(try ByteSurgery.image(of: scene.store) == damaged, "a reader changed the store")
        let next = try scene.run(["append"], stdin: Events.lines(90...91))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("cut a torn tail of \(added) bytes") == (added > 0), "\(next.stderr)")
        #expect(Events.seqs(try scene.run(["replay"]).stdout) == Array(1...84))
        let verify = try scene.run(["verify"])
        #expect(verify.status == 0 && verify.stdout.contains("ok: 84 events"), "\(verify.stdout)\(verify.stderr)")
    }
}
