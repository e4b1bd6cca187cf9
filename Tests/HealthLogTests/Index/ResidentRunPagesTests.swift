import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Lookups in plaintext UUID runs and their resident budget
/// (``UUIDFingerprintRun/residentBudget``): a run larger than the budget is read with
/// `pread(2)` and keeps nothing of its mapping resident; runs within it keep their mappings
/// within the budget together (counted in the kernel's fault-around windows), where random
/// lookups would otherwise map in all of them. Both answer as a run read whole.
@Suite("Resident pages of a large UUID run")
struct ResidentRunPagesTests {
    /// The resident bytes of the mappings of the file named `name` in this process
    /// (`/proc/self/smaps`); `nil` where there is no such file.
    static func residentBytes(ofMappingsNamed name: String) -> Int? {
        // Read to its end: a file of /proc reports no size.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? file.readToEnd() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        var inMapping = false
        var total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inMapping = fields.count >= 6 && fields[5].hasSuffix("/" + name)
            } else if inMapping, fields.first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) {
                total += kb * 1024
            }
        }
        return total
    }

    @Test("A run larger than its budget answers as the whole run does, read with pread, and keeps none of its mapping resident")
    func runLargerThanBudget() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (keys, to) = UUIDFingerprintRunStreamTests.keys(300_000, from: 3, seed: 17)
        let binding = LogBinding(storeID: StoreID.random(), check: 9)
        let wholePath = dir.path + "/whole.run"
        _ = try UUIDFingerprintRunStreamTests.streamed(keys, from: 3, to: to, binding: binding, cipher: nil, path: wholePath)
        let boundedPath = dir.path + "/bounded.run"
        try ByteSurgery.write(try ByteSurgery.read(wholePath), to: boundedPath)
        let budget = 128 << 10
        let whole = try #require(UUIDFingerprintRun(path: wholePath, cipher: nil, residentBudget: ResidentWindows.Budget(bytes: 64 << 20)))
        let bounded = try #require(UUIDFingerprintRun(path: boundedPath, cipher: nil, residentBudget: ResidentWindows.Budget(bytes: budget)))
        #expect(bounded.byteCount > 6 * budget, "a run several budgets long")
        var random = SeededRandom(state: 3)
        var fingerprints = stride(from: 0, to: keys.count, by: 61).map { UInt32(keys[$0] >> 32) }
        fingerprints += (0..<2_000).map { _ in UInt32(truncatingIfNeeded: random.next()) }
        for fingerprint in fingerprints {
            #expect(SealedRunPagesTests.blocks(bounded, fingerprint) == SealedRunPagesTests.blocks(whole, fingerprint))
        }
        #expect(bounded.residentReleases == 0 && whole.residentReleases == 0, "nothing to let go")
        #expect(!bounded.isDamaged)
        #if os(Linux)
            let wholeResident = try #require(Self.residentBytes(ofMappingsNamed: "whole.run"))
            let boundedResident = try #require(Self.residentBytes(ofMappingsNamed: "bounded.run"))
            #expect(wholeResident > 4 * budget, "random lookups map in most of a run kept whole")
            #expect(boundedResident <= ResidentWindows.windowBytes, "lookups read the file, not the mapping")
        #endif
        withExtendedLifetime((whole, bounded)) {}
    }

    @Test("A lookup in a run read with pread that cannot read it (the file cut short since it was checked) marks the run damaged, and checking it throws naming the file and byte")
    func unreadableRunThrows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (keys, to) = UUIDFingerprintRunStreamTests.keys(50_000, from: 1, seed: 23)
        let path = dir.path + "/cut.run"
        _ = try UUIDFingerprintRunStreamTests.streamed(keys, from: 1, to: to, binding: LogBinding(storeID: StoreID.random(), check: 1), cipher: nil, path: path)
        let run = try #require(UUIDFingerprintRun(path: path, cipher: nil, residentBudget: ResidentWindows.Budget(bytes: 64 << 10)))
        #expect(run.byteCount > 64 << 10)
        try ByteSurgery.truncate(path, to: UUIDFingerprintRun.headerLength)
        for key in keys.prefix(50) { run.forEachCandidateBlock(fingerprint: UInt32(key >> 32)) { _ in } }
        #expect(run.isDamaged)
        do {
            try run.checkIntact()
            Issue.record("a run that could not be read checks as intact")
        } catch let error as HealthLogError {
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix(path + " at byte ") && error.message.contains("cannot be read"), "\(error.message)")
        }
    }

    @Test("Runs opened with one budget let their pages go when their windows together pass it, though each alone fits it, and answer as before")
    func sharedBudget() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let shared = ResidentWindows.Budget(bytes: 1 << 20)
        var runs: [(whole: UUIDFingerprintRun, shared: UUIDFingerprintRun, keys: [UInt64])] = []
        for k in 0..<3 {
            let (keys, to) = UUIDFingerprintRunStreamTests.keys(200_000, from: 3, seed: UInt64(40 + k))
            let binding = LogBinding(storeID: StoreID.random(), check: UInt32(k))
            let wholePath = dir.path + "/whole-\(k).run"
            _ = try UUIDFingerprintRunStreamTests.streamed(keys, from: 3, to: to, binding: binding, cipher: nil, path: wholePath)
            let sharedPath = dir.path + "/shared-\(k).run"
            try ByteSurgery.write(try ByteSurgery.read(wholePath), to: sharedPath)
            let whole = try #require(UUIDFingerprintRun(path: wholePath, cipher: nil, residentBudget: ResidentWindows.Budget(bytes: 64 << 20)))
            let run = try #require(UUIDFingerprintRun(path: sharedPath, cipher: nil, residentBudget: shared))
            #expect(run.byteCount < shared.windows * ResidentWindows.windowBytes, "each run alone fits the budget")
            runs.append((whole, run, keys))
        }
        var random = SeededRandom(state: 5)
        for round in 0..<3 {
            for (whole, run, keys) in runs {
                var fingerprints = stride(from: round, to: keys.count, by: 97).map { UInt32(keys[$0] >> 32) }
                fingerprints += (0..<500).map { _ in UInt32(truncatingIfNeeded: random.next()) }
                for fingerprint in fingerprints {
                    #expect(SealedRunPagesTests.blocks(run, fingerprint) == SealedRunPagesTests.blocks(whole, fingerprint))
                }
            }
        }
        #expect(runs.allSatisfy { $0.shared.residentReleases > 0 && $0.whole.residentReleases == 0 })
        #expect(shared.notedWindows <= shared.windows)
        withExtendedLifetime(runs) {}
    }
}
