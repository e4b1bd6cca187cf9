import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A store built from two appends, with batches small enough that each append spans
/// several batches: the shape every corruption test damages.
///
/// The first append adds four heart-rate samples. The second adds five more heart-rate
/// samples and a step count and deletes the first append's second sample, so a second
/// append that survives in part would show up in a HealthKit-view replay.
struct CorruptionFixture {
    /// How the store's segments are cut.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        /// Everything in one segment.
        case oneSegment
        /// A segment limit of one byte: every batch gets its own segment.
        case segmentPerBatch

        var testDescription: String { rawValue }
    }

    let dir: TemporaryDirectory
    let storePath: String
    let store: HealthStore
    /// The HealthKit-view replay after the first append.
    let firstLines: [String]
    /// The HealthKit-view replay after both appends.
    let bothLines: [String]
    /// The segment file where the first append ends, and the offset just past it.
    let firstEnd: (path: String, offset: Int)
    /// The checkpoint file as the first append left it.
    let firstCheckpoint: [UInt8]
    /// Every file of the store as the first append left it.
    let firstImage: [String: [UInt8]]

    init(_ shape: Shape = .oneSegment) throws {
        dir = try TemporaryDirectory()
        storePath = dir.file("store")
        var options = StoreOptions()
        options.sync = true
        options.batchBytes = 500
        options.segmentBytes = shape == .oneSegment ? FormatConstants.defaultSegmentBytes : 1
        store = HealthStore(directory: storePath, options: options)
        _ = try store.append(ndjson: Self.ndjson((1...4).map(Self.heartRate)))
        firstLines = try Self.replay(store)
        let last = try #require(try Self.batches(in: storePath).last)
        firstEnd = (last.path, last.end)
        firstCheckpoint = try ByteSurgery.read(storePath + "/checkpoint")
        firstImage = try ByteSurgery.image(of: storePath)
        let second = (5...6).map(Self.heartRate) + [Self.steps(7), Self.heartRate(8), Self.delete(2)] + (9...10).map(Self.heartRate)
        _ = try store.append(ndjson: Self.ndjson(second))
        bothLines = try Self.replay(store)
    }

    /// The store as a crash just before the second append's commit leaves it: the segment
    /// files hold every byte the second append wrote, and every other file (checkpoint,
    /// sidecar indexes, UUID runs) is as the first append left it.
    func crashImage() throws -> [String: [UInt8]] {
        let segments = try ByteSurgery.image(of: storePath).filter { $0.key.hasSuffix(".log.lz4") }
        return firstImage.filter { !$0.key.hasSuffix(".log.lz4") }.merging(segments) { $1 }
    }

    /// Removes every sidecar index, so readers walk the segments' own batch headers.
    func removeSidecarIndexes() throws {
        for name in try ByteSurgery.image(of: storePath).keys where name.hasSuffix(".idx") {
            try ByteSurgery.remove(storePath + "/" + name)
        }
    }

    /// One batch where a segment file holds it.
    struct Batch {
        /// The segment file's path.
        var path: String
        /// The offset of the batch header's skippable frame.
        var offset: Int
        /// The offset of each group's LZ4 frame.
        var groupOffsets: [Int]
        /// The offset just past the batch's last frame.
        var end: Int
        var header: BatchHeader
    }

    /// The length of a segment's prologue: the empty LZ4 frame and the segment header.
    static var prologueLength: Int { LZ4Frame.emptyFrame.count + SegmentHeader.encodedLength }

    /// Every batch of the store, found by walking the segment files' batch headers (the
    /// on-disk format, not the library's reader) up to the first thing that is not one.
    static func batches(in store: String) throws -> [Batch] {
        var batches: [Batch] = []
        for path in try segmentPaths(store) {
            let bytes = try ByteSurgery.read(path)
            var offset = prologueLength
            while offset + 8 <= bytes.count, ByteReaderValue.u32(bytes, offset) == FormatConstants.batchHeaderMagic {
                let payloadEnd = offset + 8 + Int(ByteReaderValue.u32(bytes, offset + 4))
                guard payloadEnd <= bytes.count, let header = try? BatchHeader.decode(payload: Array(bytes[(offset + 8)..<payloadEnd])) else { break }
                var groupOffsets: [Int] = []
                var at = payloadEnd
                for group in header.groups {
                    groupOffsets.append(at)
                    at += Int(group.frameLength)
                }
                guard at <= bytes.count else { break }
                batches.append(Batch(path: path, offset: offset, groupOffsets: groupOffsets, end: at, header: header))
                offset = at
            }
        }
        return batches
    }

    /// The segment files, in sequence order.
    static func segmentPaths(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted()
            .map { store + "/segments/" + $0 }
    }

    /// The store's batches (see ``batches(in:)``).
    func batches() throws -> [Batch] {
        try Self.batches(in: storePath)
    }

    /// The path of the segment file holding `batch`.
    func path(of batch: Batch) -> String {
        batch.path
    }

    /// The path of the segment with the highest base sequence number.
    func lastSegmentPath() throws -> String {
        try #require(try Self.segmentPaths(storePath).last)
    }

    /// A third append of two fresh samples, as the writer that finds the damage makes it.
    func appendThird() throws -> AppendSummary {
        try store.append(ndjson: Self.ndjson([Self.heartRate(20), Self.heartRate(21)]))
    }

    // MARK: Event lines

    /// The UUID of sample `n`.
    static func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// A heart-rate sample with UUID `n`.
    static func heartRate(_ n: Int) -> String {
        #"{"uuid":"\#(uuid(n))","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:\#(n % 6)\#(n % 10):00Z","value":\#(60 + n),"unit":"count/min","source":"Watch"}"#
    }

    /// A step-count sample with UUID `n`.
    static func steps(_ n: Int) -> String {
        #"{"uuid":"\#(uuid(n))","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T09:00:00Z","end":"2024-03-01T09:10:00Z","value":\#(100 * n),"unit":"count"}"#
    }

    /// A delete of sample `n`.
    static func delete(_ n: Int) -> String {
        #"{"op":"delete","uuid":"\#(uuid(n))"}"#
    }

    /// Lines joined as NDJSON bytes.
    static func ndjson(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    /// Every line a replay from the beginning delivers.
    static func replay(_ store: HealthStore, raw: Bool = false) throws -> [String] {
        var lines: [String] = []
        _ = try store.replay(ReplayRequest(raw: raw)) { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    /// The sequence numbers `request` delivers from `store`, with its outcome.
    static func replayedSeqs(_ store: HealthStore, _ request: ReplayRequest) throws -> ([UInt64], ReplayOutcome) {
        var seqs: [UInt64] = []
        let outcome = try store.replay(request) { line in
            let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
            seqs.append((object["seq"] as! NSNumber).uint64Value)
        }
        return (seqs, outcome)
    }

    /// The `seq` of each stored line.
    static func seqs(_ lines: [String]) -> [UInt64] {
        lines.compactMap { line in
            guard line.hasPrefix(#"{"seq":"#) else { return nil }
            return UInt64(line.dropFirst(7).prefix(while: \.isNumber))
        }
    }
}
