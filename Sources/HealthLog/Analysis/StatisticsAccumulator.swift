/// Adds samples up into ``Statistics`` per interval (and per source with
/// ``StatisticsOptions/separateBySource``), in the query's unit: discrete figures as the
/// samples come, in the interval holding each sample's start; sums and durations at the
/// end, by ``CumulativeMerge``, which needs every sample's span and value at hand.
struct StatisticsAccumulator {
    /// The figures of one interval (and source) that are counted as samples come.
    private struct Figures {
        var count = 0
        var values = 0
        var sum = CompensatedSum()
        var minimum = Double.infinity
        var maximum = -Double.infinity
        var mostRecent: (value: Double, end: Int64, start: Int64)?
    }

    /// An interval's start and a source (-1 when sources are merged).
    private struct Key: Hashable {
        var start: Int64
        var source: Int
    }

    let query: StatisticsQuery
    /// The unit the figures are in (`nil` for types without units, or before the first
    /// sample of an unknown quantity type says it).
    private var unit: HealthUnit?
    /// The unit's text, also for an unknown unit all samples share.
    private var unitText: String?
    private var converters: [String: @Sendable (Double) -> Double] = [:]
    private var sources: [String] = []
    private var sourceIndex: [String: Int] = [:]
    private var figures: [Key: Figures] = [:]
    private var pieces: [(start: Int64, end: Int64, value: Double, source: Int)] = []
    private let needsPieces: Bool
    private let separate: Bool

    /// An accumulator for `query`, which must be valid (``StatisticsQuery/validate()``).
    init(_ query: StatisticsQuery) throws {
        self.query = query
        let info = QuantityTypeInfo.of(query.type.identifier)
        unit = query.unit ?? info?.unit
        unitText = unit?.text
        separate = query.options.contains(.separateBySource)
        needsPieces = (query.type.kind == .quantity && query.options.contains(.sum)) || query.options.contains(.duration)
    }

    private func bounds(_ micros: Int64) -> (start: Int64, end: Int64) {
        query.interval.bounds(of: micros, offsetMinutes: query.offsetMinutes)
    }

    /// Counts one sample.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a value whose unit does not convert
    ///   to the query's.
    mutating func add(start: Int64, end: Int64, value: Double?, unit sampleUnit: String, source: String) throws {
        var value = value
        if query.type.kind == .quantity, let raw = value { value = try convert(raw, from: sampleUnit) }
        let sourceID: Int
        if let known = sourceIndex[source] {
            sourceID = known
        } else {
            sourceID = sources.count
            sources.append(source)
            sourceIndex[source] = sourceID
        }
        let key = Key(start: bounds(start).start, source: separate ? sourceID : -1)
        var f = figures[key] ?? Figures()
        f.count += 1
        if let value, query.type.kind == .quantity {
            f.values += 1
            f.sum.add(value)
            f.minimum = min(f.minimum, value)
            f.maximum = max(f.maximum, value)
            if f.mostRecent.map({ (end, start) >= ($0.end, $0.start) }) ?? true { f.mostRecent = (value, end, start) }
        }
        figures[key] = f
        if needsPieces { pieces.append((start, end, value ?? 0, sourceID)) }
    }

    /// `value` in `sampleUnit`, in the query's unit.
    private mutating func convert(_ value: Double, from sampleUnit: String) throws -> Double {
        if let converter = converters[sampleUnit] { return converter(value) }
        let converter: @Sendable (Double) -> Double
        if unitText == nil || unitText == sampleUnit {
            converter = { $0 }
            if unitText == nil {
                unitText = sampleUnit
                unit = try? HealthUnit(sampleUnit)
            }
        } else {
            let type = query.type.identifier
            guard let target = unit else {
                throw HealthLogError(.badUsage, "samples of \(type) are in '\(unitText ?? "")' and in '\(sampleUnit)', which healthlog cannot convert: it never mixes units")
            }
            let parsed: HealthUnit
            do {
                parsed = try HealthUnit(sampleUnit)
            } catch let error as HealthLogError {
                throw HealthLogError(.badUsage, "samples of \(type) in '\(sampleUnit)' do not convert to '\(target)': \(error.message)")
            }
            guard parsed.isCompatible(with: target) else {
                throw HealthLogError(
                    .badUsage,
                    "samples of \(type) in '\(sampleUnit)' (\(parsed.dimension)) do not convert to '\(target)' (\(target.dimension)): healthlog never mixes units")
            }
            converter = parsed.converter(to: target)
        }
        converters[sampleUnit] = converter
        return converter(value)
    }

    /// The statistics, by interval, then source: the intervals that meet the predicate's
    /// date range (a sample that overlaps the range's start adds nothing to the interval
    /// before it, as HealthKit enumerates statistics from the range's start).
    func results() -> [Statistics] {
        let o = query.options
        var sums: [Key: CompensatedSum] = [:]
        var durations: [Key: Int64] = [:]
        if needsPieces {
            let merge = CumulativeMerge(bounds: bounds)
            let groups: [[Int]]
            let rankOf: [Int]
            if separate {
                var bySource = Array(repeating: [Int](), count: sources.count)
                for (index, piece) in pieces.enumerated() { bySource[piece.source].append(index) }
                groups = bySource
                rankOf = Array(repeating: 0, count: sources.count)
            } else {
                groups = [Array(pieces.indices)]
                let order = SourcePriority(query.sourcePriority).ordered(sources)
                let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
                rankOf = sources.map { position[$0] ?? 0 }
            }
            for group in groups where !group.isEmpty {
                let source = separate ? pieces[group[0]].source : -1
                let merged = group.map { i in
                    CumulativeMerge.Piece(start: pieces[i].start, end: pieces[i].end, value: pieces[i].value, rank: rankOf[pieces[i].source])
                }
                merge.run(
                    merged, ranks: separate ? 1 : sources.count,
                    kept: { start, value in sums[Key(start: start, source: source), default: CompensatedSum()].add(value) },
                    covered: { start, micros in durations[Key(start: start, source: source), default: 0] += micros })
            }
        }
        let range = query.predicate.dateRange
        let keys = Set(figures.keys).union(sums.keys).union(durations.keys).filter { key in
            (range.end.map { key.start < $0 } ?? true) && (range.start.map { bounds(key.start).end > $0 } ?? true)
        }
        let zone = Int16(query.offsetMinutes)
        return keys.sorted { ($0.start, $0.source < 0 ? "" : sources[$0.source]) < ($1.start, $1.source < 0 ? "" : sources[$1.source]) }.map { key in
            let f = figures[key] ?? Figures()
            let hasValues = f.values > 0
            let isQuantity = query.type.kind == .quantity
            return Statistics(
                start: Timestamp(microseconds: key.start, offsetMinutes: zone, isZulu: zone == 0, fractionDigits: 0),
                end: Timestamp(microseconds: bounds(key.start).end, offsetMinutes: zone, isZulu: zone == 0, fractionDigits: 0),
                label: query.interval.label(of: key.start, offsetMinutes: query.offsetMinutes),
                unit: isQuantity ? unitText ?? "" : "", count: f.count,
                sum: o.contains(.sum) && isQuantity ? (sums[key]?.value ?? 0) : nil,
                average: o.contains(.average) && hasValues ? f.sum.value / Double(f.values) : nil,
                minimum: o.contains(.minimum) && hasValues ? f.minimum : nil,
                maximum: o.contains(.maximum) && hasValues ? f.maximum : nil,
                duration: o.contains(.duration) ? Double(durations[key] ?? 0) / 1_000_000 : nil,
                mostRecent: o.contains(.mostRecent) ? f.mostRecent?.value : nil,
                source: key.source < 0 ? nil : sources[key.source])
        }
    }
}
