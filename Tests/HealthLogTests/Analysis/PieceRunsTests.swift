import Testing
@testable import HealthLog

/// Source-merged sums and durations in bounded memory (``PieceRuns``): sorted runs in a
/// scratch file, merged back, give exactly what the merge gives with every sample in memory.
@Suite("Merge runs")
struct PieceRunsTests {
    /// A small random generator, seeded so a failure repeats.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            return Int(SplitMix64.finalize(state) % UInt64(bound))
        }
    }

    private static let sources = ["Watch", "iPhone", "Pedometer++", "Scale"]
    private static let hour: Int64 = 3_600_000_000

    /// `count` samples over a few days, many overlapping, from several sources and recorded
    /// offsets, some without duration, some sharing a start or an end.
    private static func samples(_ count: Int, seed: UInt64) -> [(start: Int64, end: Int64, value: Double, source: String, offset: Int16)] {
        var random = Random(state: seed)
        let base: Int64 = 1_709_251_200_000_000
        return (0..<count).map { _ in
            let start = base + Int64(random.next(96)) * hour / 4 + (random.next(3) == 0 ? 0 : Int64(random.next(900)) * 1_000_000)
            let end = random.next(6) == 0 ? start : start + Int64(random.next(4) == 0 ? 0 : random.next(3 * 3600) + 1) * 1_000_000 + (random.next(5) == 0 ? hour : 0)
            return (start, end, Double(random.next(5000)) / 7, sources[random.next(sources.count)], Int16([0, 60, -300][random.next(3)]))
        }
    }

    /// The statistics of `query` over `samples`, with `pieces` holding the merge's samples.
    private static func results(_ query: StatisticsQuery, _ samples: [(start: Int64, end: Int64, value: Double, source: String, offset: Int16)], _ pieces: PieceRuns) throws -> [Statistics] {
        var accumulator = try StatisticsAccumulator(query, pieces: pieces)
        for s in samples { try accumulator.add(start: s.start, end: s.end, value: s.value, unit: "count", source: s.source, offsetMinutes: s.offset) }
        return try accumulator.results()
    }

    @Test("With a budget of a few samples (many runs, merged in passes), sums and durations equal the in-memory merge's exactly", arguments: [false, true])
    func boundedEqualsInMemory(sealed: Bool) throws {
        let sealing = sealed ? try ScratchCipher.forProcess() : nil
        let queries = [
            StatisticsQuery(type: .quantity("StepCount"), interval: .hour, options: .sum),
            StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum, timeZone: .recorded, sourcePriority: ["iPhone", "Scale"]),
            StatisticsQuery(type: .quantity("StepCount"), interval: .hour, options: [.sum, .separateBySource], offsetMinutes: 90),
            StatisticsQuery(type: .category("SleepAnalysis"), interval: .hour, options: .duration, timeZone: .recorded),
        ]
        for (k, query) in queries.enumerated() {
            for seed in 1...3 {
                let samples = Self.samples(600, seed: UInt64(k * 10 + seed))
                let expected = try Self.results(query, samples, PieceRuns())
                let bounded = PieceRuns(memoryPieces: 5, fanIn: 3, sealing: sealing)
                let got = try Self.results(query, samples, bounded)
                #expect(bounded.file != nil, "the samples went to runs")
                #expect(!expected.isEmpty)
                #expect(got == expected, "query \(k), seed \(seed)")
            }
        }
    }

    @Test("Pieces come back by start, then order, whatever order they came in", arguments: [1, 4, 1 << 17])
    func sortedBack(memoryPieces: Int) throws {
        var random = Random(state: 7)
        let runs = PieceRuns(memoryPieces: memoryPieces, fanIn: 2)
        var given: [CumulativeMerge.Piece] = []
        for order in 0..<500 {
            let piece = CumulativeMerge.Piece(start: Int64(random.next(50)), end: 0, value: Double(order), order: order, source: Int32(random.next(3)), clock: Int32(random.next(2)))
            given.append(piece)
            try runs.append(piece)
        }
        var back: [CumulativeMerge.Piece] = []
        try runs.forEach { back.append($0) }
        let sorted = given.sorted { $0.precedes($1) }
        #expect(back.map(\.order) == sorted.map(\.order))
        #expect(back.map(\.source) == sorted.map(\.source) && back.map(\.clock) == sorted.map(\.clock) && back.map(\.value) == sorted.map(\.value))
    }

    @Test("For an encrypted store the runs hold no record in the clear, and a changed block is damage, not a wrong sum")
    func sealedRuns() throws {
        let marker = 1234.5678
        for sealed in [false, true] {
            let runs = PieceRuns(memoryPieces: 2, fanIn: 64, sealing: sealed ? try ScratchCipher.forProcess() : nil)
            for order in 0..<6 { try runs.append(CumulativeMerge.Piece(start: Int64(order), end: Int64(order) + 10, value: marker, order: order, source: 0)) }
            let file = try #require(runs.file)
            let bytes = try file.read(at: 0, count: try file.size())
            let pattern = withUnsafeBytes(of: marker.bitPattern.littleEndian) { Array($0) }
            let inClear = (0...bytes.count - pattern.count).contains { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
            #expect(inClear == !sealed)
            guard sealed else { continue }
            try file.write([bytes[50] ^ 1], at: 50)
            #expect(throws: HealthLogError.self) { try runs.forEach { _ in } }
        }
    }
}
