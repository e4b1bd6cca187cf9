import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// One named test per failure mode of the segment log: atomicity, damage, format versions
/// and file modes (`Format.md`, "Reading, and telling a torn tail from damage").
///
/// The rule under test: a torn tail (the last append cut short, failing its checksum with
/// no checkpoint vouching for it, or followed by junk) is invisible to readers, a note for
/// `verify`, and cut by the next writer; damage with valid data after it is an error that
/// names the file and byte offset, and never a crash.
///
/// Writers that must refuse a store (damage, newer format) are tested through the CLI in
/// `GoldenTests`: in-process, a refused `LogWriter` closes its lock descriptor twice (in
/// the `catch` of `init` and again in `deinit`), which can close another test's file.
@Suite("Corruption")
struct CorruptionTests {
    @Test(
        "Cutting the last segment at any byte of the last append leaves exactly the first append, and the next writer cuts the tail",
        arguments: CorruptionFixture.Shape.allCases)
    func truncatedAnywhere(_ shape: CorruptionFixture.Shape) throws {
        let fixture = try CorruptionFixture(shape)
        defer { fixture.dir.remove() }
        let last = try fixture.lastSegmentPath()
        let size = try ByteSurgery.size(last)
        // A crash mid-append leaves the checkpoint and indexes as the last append that returned left them.
        let image = try fixture.crashImage()
        // One segment: every offset inside the last batch. A segment per batch: every offset
        // of the last segment, its prologue and its one batch (the last).
        let lastBatch = try #require(try fixture.batches().last)
        #expect(lastBatch.header.firstSeq > 5, "the second append spans several batches")
        let from = shape == .oneSegment ? lastBatch.offset : 0
        if shape == .segmentPerBatch { #expect(lastBatch.offset == CorruptionFixture.prologueLength) }
        #expect(size - from > 200)
        for length in from..<size {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.truncate(last, to: length)
            try #require(try CorruptionFixture.replay(fixture.store) == fixture.firstLines, "cut at byte \(length)")
            try #require(try fixture.store.headAnchor().seq == 4, "cut at byte \(length)")
            let report = try fixture.store.verify()
            try #require(report.problems.isEmpty, "cut at byte \(length): \(report.problems)")
            try #require(report.notes.contains { $0.hasPrefix("torn tail of ") }, "cut at byte \(length): \(report.notes)")

            let summary = try fixture.appendThird()
            let torn = try #require(summary.recoveredTail, "cut at byte \(length)")
            try #require(torn.offset == fixture.firstEnd.offset && fixture.firstEnd.path.hasSuffix(torn.file), "cut at byte \(length): \(torn)")
            let after = try CorruptionFixture.replay(fixture.store)
            try #require(Array(after.prefix(4)) == fixture.firstLines, "cut at byte \(length)")
            try #require(CorruptionFixture.seqs(after) == [1, 2, 3, 4, 5, 6], "cut at byte \(length)")
            let healed = try fixture.store.verify()
            try #require(healed.isSound && healed.notes.isEmpty, "cut at byte \(length): \(healed)")
        }
    }

    @Test("A flipped byte anywhere in an earlier batch's header is damage: readers walking the headers refuse, naming the file and offset")
    func earlierHeaderFlipped() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let target = try fixture.batches()[0]
        let path = fixture.path(of: target)
        let location = "\(Self.displayPath(path)) at byte \(target.offset)"
        // Without the sidecar index (missing, stale or damaged), readers walk the headers.
        try fixture.removeSidecarIndexes()
        let image = try ByteSurgery.image(of: fixture.storePath)
        for offset in target.offset..<target.groupOffsets[0] {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.flip(path, at: offset)
            let damaged = try ByteSurgery.image(of: fixture.storePath)
            try Self.expectDamage(at: location, in: fixture, "flip at byte \(offset)")
            try #require(try ByteSurgery.image(of: fixture.storePath) == damaged, "flip at byte \(offset): a reader changed the store")
        }
    }

    @Test(
        "verify reports a damaged earlier batch header even while the sidecar index holds a good copy, and replay never serves wrong events",
        arguments: [0, 4, 8, 20, -1])
    func earlierHeaderFlippedUnderIndex(_ at: Int) throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let target = try fixture.batches()[0]
        let path = fixture.path(of: target)
        let offset = at >= 0 ? target.offset + at : target.groupOffsets[0] + at
        try ByteSurgery.flip(path, at: offset)
        if let lines = try? CorruptionFixture.replay(fixture.store) {
            #expect(lines == fixture.bothLines)
        }
        let report = try fixture.store.verify()
        #expect(report.problems.contains { $0.contains("\(Self.displayPath(path)) at byte \(target.offset)") }, "\(report)")
    }

    @Test("A flipped byte anywhere in an earlier batch's frame fails its checksum, naming the file and the frame's offset")
    func earlierFrameFlipped() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let target = try fixture.batches()[0]
        let path = fixture.path(of: target)
        let frame = target.groupOffsets[0]..<(target.groupOffsets[0] + Int(target.header.groups[0].frameLength))
        let location = "\(Self.displayPath(path)) at byte \(frame.lowerBound)"
        let image = try ByteSurgery.image(of: fixture.storePath)
        for offset in frame {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.flip(path, at: offset, mask: 0x10)
            try Self.expectDamage(at: location, in: fixture, "flip at byte \(offset)", anchorToo: false)
        }
    }

    @Test("A damaged frame whose checksums were recomputed never crashes a reader, and verify catches it unless it decodes to the same events")
    func earlierFrameFlippedAndRechecksummed() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        try fixture.removeSidecarIndexes()
        let target = try fixture.batches()[0]
        let path = fixture.path(of: target)
        let frame = target.groupOffsets[0]..<(target.groupOffsets[0] + Int(target.header.groups[0].frameLength))
        let location = "\(Self.displayPath(path)) at byte \(frame.lowerBound)"
        let image = try ByteSurgery.image(of: fixture.storePath)
        let raw = try CorruptionFixture.replay(fixture.store, raw: true)
        var caught = 0
        for offset in frame {
            for mask: UInt8 in [0x01, 0x80] {
                try ByteSurgery.restore(image, to: fixture.storePath)
                try ByteSurgery.flip(path, at: offset, mask: mask)
                var header = target.header
                header.groups[0].frameCRC = CRC32C.checksum(try ByteSurgery.read(path)[frame])
                try ByteSurgery.patch(path, at: target.offset, with: header.encoded())
                let what = "flip \(mask) at byte \(offset)"
                // Queries trust the (forged) CRC-32C and may skip LZ4's content checksum:
                // they may fail or decode something else, but never crash.
                var decoded: [String]?
                do {
                    decoded = try CorruptionFixture.replay(fixture.store, raw: true)
                } catch let error as HealthLogError {
                    try #require(error.code == .corrupt && error.message.contains(location), "\(what): \(error)")
                }
                // A changed match offset can point at equal bytes (NDJSON repeats itself):
                // the same events come out, and there is nothing to report.
                if decoded == raw { continue }
                let report = try fixture.store.verify()
                try #require(report.problems.contains { $0.contains(location) }, "\(what): \(report)")
                caught += 1
            }
        }
        #expect(caught > frame.count * 3 / 2)
    }

    /// What stands in for the checkpoint that would vouch for the last append (a garbled
    /// one is damage of its own: `IndexRecoveryTests.checkpointGarbled`).
    enum CheckpointState: String, CaseIterable, CustomTestStringConvertible {
        case deleted, stale
        var testDescription: String { rawValue }
    }

    @Test(
        "A flipped byte in the last append's frames, with no checkpoint vouching for it, is a torn tail: invisible, then cut",
        arguments: CheckpointState.allCases)
    func lastAppendFrameFlipped(_ checkpoint: CheckpointState) throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let checkpointPath = fixture.storePath + "/checkpoint"
        // The second append never returned: its indexes were never written.
        let image = try fixture.crashImage()
        // The middle byte of every frame of the second append.
        let frames = try fixture.batches().filter { $0.header.firstSeq > 4 }.flatMap { batch in
            let path = fixture.path(of: batch)
            return batch.groupOffsets.enumerated().map { g, offset in (path, offset + Int(batch.header.groups[g].frameLength) / 2) }
        }
        #expect(frames.count >= 4)
        for (path, offset) in frames {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.flip(path, at: offset, mask: 0x04)
            switch checkpoint {
            case .deleted: try ByteSurgery.remove(checkpointPath)
            case .stale: try ByteSurgery.write(fixture.firstCheckpoint, to: checkpointPath)
            }
            try #require(try CorruptionFixture.replay(fixture.store) == fixture.firstLines, "flip at byte \(offset)")
            let report = try fixture.store.verify()
            try #require(report.isSound, "flip at byte \(offset): \(report)")
            try #require(report.notes.contains { $0.contains("torn tail") && $0.contains("fails its frame checksum") }, "flip at byte \(offset): \(report.notes)")
            let torn = try #require(try fixture.appendThird().recoveredTail, "flip at byte \(offset)")
            try #require(torn.offset == fixture.firstEnd.offset, "flip at byte \(offset): \(torn)")
            try #require(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == [1, 2, 3, 4, 5, 6])
            let healed = try fixture.store.verify()
            try #require(healed.isSound && healed.notes.isEmpty, "flip at byte \(offset): \(healed)")
        }
    }

    @Test("The same flip in the last append is damage when the checkpoint says the append was acknowledged")
    func lastAppendFrameFlippedUnderCheckpoint() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let target = try #require(try fixture.batches().last)
        let path = fixture.path(of: target)
        try ByteSurgery.flip(path, at: target.groupOffsets[0] + 12)
        try Self.expectDamage(at: "\(Self.displayPath(path)) at byte \(target.groupOffsets[0])", in: fixture, "flip in the last frame", anchorToo: false)
    }

    /// Bytes that land after the last complete append.
    enum Junk: String, CaseIterable, CustomTestStringConvertible {
        case oneZero, sevenZeros, eightZeros, pageOfZeros, garbage, fakeBatchHeader, foreignBatch, repeatedLastBatch
        var testDescription: String { rawValue }

        func bytes(after fixture: CorruptionFixture) throws -> [UInt8] {
            var random = SeededRandom(state: 0x5EED)
            switch self {
            case .oneZero: return [0]
            case .sevenZeros: return [UInt8](repeating: 0, count: 7)
            case .eightZeros: return [UInt8](repeating: 0, count: 8)
            case .pageOfZeros: return [UInt8](repeating: 0, count: 4096)
            case .garbage: return (0..<3000).map { _ in UInt8.random(in: 0...255, using: &random) }
            case .fakeBatchHeader:
                return [0x51, 0x2A, 0x4D, 0x18, 120, 0, 0, 0] + (0..<120).map { _ in UInt8.random(in: 0...255, using: &random) }
            case .repeatedLastBatch:
                let last = try #require(try fixture.batches().last)
                return Array(try ByteSurgery.read(fixture.path(of: last))[last.offset..<last.end])
            case .foreignBatch:
                // The same appends in another store: its third append's batch has exactly the
                // sequence numbers this store expects next; only the store tag gives it away.
                let other = try CorruptionFixture()
                defer { other.dir.remove() }
                _ = try other.appendThird()
                let last = try #require(try other.batches().last)
                try #require(last.header.firstSeq == 12)
                return Array(try ByteSurgery.read(other.path(of: last))[last.offset..<last.end])
            }
        }
    }

    @Test("Junk after the last append is a torn tail: invisible to readers, a note for verify, cut by the next writer", arguments: Junk.allCases)
    func junkAfterLastAppend(_ junk: Junk) throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let path = try fixture.lastSegmentPath()
        let end = try ByteSurgery.size(path)
        let bytes = try junk.bytes(after: fixture)
        try ByteSurgery.append(bytes, to: path)

        #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
        #expect(try fixture.store.headAnchor().seq == 11)
        let report = try fixture.store.verify()
        #expect(report.isSound)
        #expect(report.notes.count == 1)
        #expect(report.notes.first?.contains("torn tail of \(bytes.count) bytes at \(Self.displayPath(path)) at byte \(end)") == true)

        let torn = try #require(try fixture.appendThird().recoveredTail)
        #expect(torn.offset == end && torn.bytes == bytes.count)
        let after = try CorruptionFixture.replay(fixture.store)
        #expect(Array(after.prefix(fixture.bothLines.count)) == fixture.bothLines)
        #expect(CorruptionFixture.seqs(after).last == 13)
        let healed = try fixture.store.verify()
        #expect(healed.isSound && healed.notes.isEmpty && healed.events == 13)
    }

    /// Where a newer format version shows up.
    enum NewerVersion: String, CaseIterable, CustomTestStringConvertible {
        case segmentHeader, batchHeader, metaFile
        var testDescription: String { rawValue }
    }

    @Test("A store written by a newer format version is refused by readers and verify, and left as it is", arguments: NewerVersion.allCases)
    func newerVersionRefused(_ place: NewerVersion) throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let first = try fixture.batches()[0]
        let segment = fixture.path(of: first)
        let last = try #require(try fixture.batches().last)
        switch place {
        case .segmentHeader:
            let payload = LZ4Frame.emptyFrame.count + 8
            try ByteSurgery.patch(segment, at: payload + 4, with: [2, 0])
            try ByteSurgery.rechecksum(segment, range: payload..<(payload + 44), storedAt: payload + 44)
        case .batchHeader:
            // As a newer healthlog would append it: the last batch (batch header version 2
            // is a compacted batch's, 3 one that records its origin, so the newer one is 4).
            let payload = last.offset + 8
            let crcAt = last.groupOffsets[0] - 4
            try ByteSurgery.patch(segment, at: payload + 4, with: [4, 0])
            try ByteSurgery.rechecksum(segment, range: payload..<crcAt, storedAt: crcAt)
        case .metaFile:
            let meta = fixture.storePath + "/meta"
            let text = String(decoding: try ByteSurgery.read(meta), as: UTF8.self)
            #expect(text.contains("\nformat 1\n"))
            try ByteSurgery.write(Array(text.replacingOccurrences(of: "\nformat 1\n", with: "\nformat 3\n").utf8), to: meta)
        }
        let image = try ByteSurgery.image(of: fixture.storePath)
        let attempts: [(String, () throws -> Void)] = [
            ("replay", { _ = try CorruptionFixture.replay(fixture.store) }),
            ("anchor", { _ = try fixture.store.headAnchor() }),
            ("verify", { _ = try fixture.store.verify() }),
        ]
        for (name, attempt) in attempts {
            let error = try #require(throws: HealthLogError.self, "\(name)") { try attempt() }
            #expect(error.code == .unsupportedVersion, "\(name): \(error)")
            #expect(error.message.contains(place == .batchHeader ? "version 4" : "version 2") && error.message.hasSuffix("upgrade healthlog"), "\(name): \(error)")
        }
        #expect(try ByteSurgery.image(of: fixture.storePath) == image)
    }

    @Test("The store and segments directories are 0700 and every file in them, and an anchor file, is 0600")
    func fileModes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.segmentBytes = 1
        options.batchBytes = 500
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: CorruptionFixture.ndjson((1...4).map(CorruptionFixture.heartRate)))
        let summary = try store.append(ndjson: CorruptionFixture.ndjson([CorruptionFixture.delete(1), CorruptionFixture.heartRate(5)]))
        try AnchorFile.write(summary.anchor, to: dir.file("anchor"))

        #expect(try ByteSurgery.mode(dir.file("store")) == 0o700)
        #expect(try ByteSurgery.mode(dir.file("store/segments")) == 0o700)
        let files = try ByteSurgery.image(of: dir.file("store")).keys.sorted()
        #expect(files.filter { $0.hasPrefix("segments/") }.count >= 3)
        #expect(Set(files).isSuperset(of: ["meta", "lock", "checkpoint"]))
        #expect(!files.contains { $0.hasSuffix(".tmp") })
        for file in files {
            #expect(try ByteSurgery.mode(dir.file("store/" + file)) == 0o600, "\(file)")
        }
        #expect(try ByteSurgery.mode(dir.file("anchor")) == 0o600)
    }

    @Test("A lost page in the middle of an append that never returned is a torn tail, even though the append's last batch reached the disk")
    func holeInUnacknowledgedAppend() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        // A power cut persists dirty pages in any order: the second append's middle batch
        // reads back as zeros, its last batch made it, and the checkpoint still marks the end
        // of the first append (the second never returned).
        let middle = try fixture.batches().filter { $0.header.firstSeq > 4 }[1]
        let path = fixture.path(of: middle)
        try ByteSurgery.patch(path, at: middle.offset, with: [UInt8](repeating: 0, count: middle.end - middle.offset))
        // While the checkpoint says the second append returned, the hole is damage.
        try Self.expectDamage(at: Self.displayPath(path), within: middle.offset..<middle.end, in: fixture, "hole under the checkpoint", anchorToo: false)
        try ByteSurgery.restore(try fixture.crashImage(), to: fixture.storePath)
        let lines = try CorruptionFixture.replay(fixture.store)
        #expect(lines == fixture.firstLines)
        let report = try fixture.store.verify()
        #expect(report.isSound && report.notes.count == 1, "\(report)")
        #expect(try fixture.appendThird().recoveredTail?.offset == fixture.firstEnd.offset)
        #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == [1, 2, 3, 4, 5, 6])
    }

    @Test("A flipped byte in the last batch header of an acknowledged append is damage, not a torn tail for the next writer to cut")
    func lastBatchHeaderFlippedUnderCheckpoint() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let last = try #require(try fixture.batches().last)
        let path = fixture.path(of: last)
        try ByteSurgery.flip(path, at: last.offset + 30)
        try Self.expectDamage(at: "\(Self.displayPath(path)) at byte \(last.offset)", in: fixture, "flip in the last batch header")
    }

    // MARK: Helpers

    /// `segments/NAME` for a segment's full path.
    static func displayPath(_ path: String) -> String {
        "segments/" + (path.split(separator: "/").last.map(String.init) ?? "")
    }

    /// Checks that replay (and, with `anchorToo`, the head anchor) refuses with `.corrupt`
    /// naming `location`, and that `verify` reports a problem there without throwing.
    static func expectDamage(at location: String, in fixture: CorruptionFixture, _ what: Comment, anchorToo: Bool = true) throws {
        let parts = location.components(separatedBy: " at byte ")
        let offset = try #require(parts.count == 2 ? Int(parts[1]) : nil)
        try expectDamage(at: parts[0], within: offset..<(offset + 1), in: fixture, what, anchorToo: anchorToo)
    }

    /// Like ``expectDamage(at:in:_:anchorToo:)``, for damage reported anywhere in `range` of `file`.
    static func expectDamage(at file: String, within range: Range<Int>, in fixture: CorruptionFixture, _ what: Comment, anchorToo: Bool = true) throws {
        func names(_ message: String) -> Bool {
            guard let found = message.range(of: file + " at byte ") else { return false }
            return Int(message[found.upperBound...].prefix(while: \.isNumber)).map(range.contains) ?? false
        }
        let error = try #require(throws: HealthLogError.self, what) { try CorruptionFixture.replay(fixture.store) }
        try #require(error.code == .corrupt, what)
        try #require(names(error.message), "\(what): \(error.message)")
        if anchorToo {
            let anchor = try #require(throws: HealthLogError.self, what) { try fixture.store.headAnchor() }
            try #require(anchor.code == .corrupt && names(anchor.message), "\(what): \(anchor)")
        }
        let report = try fixture.store.verify()
        try #require(!report.isSound && report.problems.contains(where: names), "\(what): \(report.problems)")
    }
}
