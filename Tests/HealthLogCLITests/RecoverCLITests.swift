import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog recover DEST`: what it prints for each kind of damage, its exit codes (0 all
/// read, 1 something lost, 2 a destination that is not empty), and that the new store it
/// writes holds exactly the events it did not report lost.
@Suite("recover")
struct RecoverCLITests {
    /// A store of events 1…300 in five appends over many small segments; returns the
    /// segment paths in order.
    private static func seed(_ dir: TemporaryDirectory) throws -> [String] {
        for k in 0..<5 { try CrashTests.seed(dir.file("store"), with: Events.lines((k * 60 + 1)...(k * 60 + 60))) }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("store/segments")).filter { $0.hasSuffix(".log.lz4") }.sorted()
        return names.map { dir.file("store/segments/" + $0) }
    }

    /// The first sequence number a segment holds, from its name.
    private static func base(_ path: String) -> Int {
        Int((path as NSString).lastPathComponent.prefix(20))!
    }

    /// The ranges `lost A-B` lines name.
    private static func lost(_ stdout: String) -> [ClosedRange<Int>] {
        stdout.split(separator: "\n").filter { $0.hasPrefix("lost ") }.map { line in
            let bounds = line.dropFirst(5).split(separator: "-").map { Int($0)! }
            return bounds[0]...bounds[1]
        }
    }

    /// Runs `recover` into `recovered` and checks the new store: it verifies, and replays
    /// exactly 1…300 less what stdout reports lost.
    private static func recover(_ dir: TemporaryDirectory) throws -> BuiltProgram.Result {
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "recover", dir.file("recovered")])
        let lost = Self.lost(result.stdout)
        let expected = (1...300).filter { seq in !lost.contains { $0.contains(seq) } }.map(UInt64.init)
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("recovered"))) == expected)
        let verify = try HealthLogBinary.run(["--store", dir.file("recovered"), "verify"])
        #expect(verify.status == 0, "\(verify.stdout)")
        return result
    }

    @Test("A sound store: exit 0, nothing on stdout, every event back")
    func sound() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.seed(dir)
        let result = try Self.recover(dir)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("recovered 300 events"), "\(result.stderr)")
    }

    @Test("A flipped byte mid-segment: exit 1, one lost range inside that segment and the byte range holding the flip")
    func flippedByte() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let segments = try Self.seed(dir)
        let at = try ByteSurgery.size(segments[1]) / 2
        try ByteSurgery.flip(segments[1], at: at)
        let result = try Self.recover(dir)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("healthlog: error: ") && result.stderr.contains("could not be read"), "\(result.stderr)")
        let lost = Self.lost(result.stdout)
        #expect(lost.count == 1 && lost[0].lowerBound >= Self.base(segments[1]) && lost[0].upperBound < Self.base(segments[2]), "\(result.stdout)")
        let region = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("unreadable ") })
        #expect(region.hasPrefix("unreadable segments/\((segments[1] as NSString).lastPathComponent) bytes "))
        let bytes = region.split(separator: " ")[3].dropLast().split(separator: "-").map { Int($0)! }
        #expect(bytes[0] <= at && at <= bytes[1], "\(region)")
        #expect(region.hasSuffix("(sequence \(lost[0].lowerBound)-\(lost[0].upperBound))"), "\(region)")
    }

    @Test("A deleted middle segment: exit 1 and exactly its numbers lost, from its name to the next segment's")
    func deletedSegment() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let segments = try Self.seed(dir)
        try ByteSurgery.remove(segments[2])
        let result = try Self.recover(dir)
        #expect(result.status == 1)
        #expect(Self.lost(result.stdout) == [Self.base(segments[2])...(Self.base(segments[3]) - 1)], "\(result.stdout)")
    }

    @Test("A truncated last segment: the acknowledged tail is lost, to the checkpoint's sequence number")
    func truncatedSegment() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let segments = try Self.seed(dir)
        let last = segments[segments.count - 1]
        try ByteSurgery.truncate(last, to: try ByteSurgery.size(last) - 10)
        let result = try Self.recover(dir)
        #expect(result.status == 1)
        let lost = Self.lost(result.stdout)
        #expect(lost.count == 1 && lost[0].upperBound == 300 && lost[0].lowerBound >= Self.base(last), "\(result.stdout)")
        #expect(result.stdout.contains("batch frames end past the end of the file"), "\(result.stdout)")
    }

    @Test("A garbage segment header loses nothing: exit 0, the header's bytes listed as unreadable")
    func garbageHeader() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let segments = try Self.seed(dir)
        try ByteSurgery.patch(segments[1], at: 0, with: [UInt8](repeating: 0x5A, count: 40))
        let result = try Self.recover(dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.lost(result.stdout).isEmpty)
        #expect(result.stdout.hasPrefix("unreadable segments/\((segments[1] as NSString).lastPathComponent) bytes 0-"), "\(result.stdout)")
    }

    @Test("A destination that is not empty: exit 2, nothing written")
    func notEmpty() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.seed(dir)
        try FileManager.default.createDirectory(atPath: dir.file("recovered"), withIntermediateDirectories: false)
        try ByteSurgery.write([0], to: dir.file("recovered/keep"))
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "recover", dir.file("recovered")])
        #expect(result.status == 2 && result.stderr.contains("is not empty"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("recovered")) == ["keep"])
    }
}
