/// Adds samples up into ``Statistics`` per interval (and per source with
/// ``StatisticsOptions/separateBySource``), in the query's unit and on the query's clock
/// (``StatisticsTimeZone``): discrete figures as the samples come, in the interval holding
/// each sample's start; sums and durations at the end, by ``CumulativeMerge``, which takes
/// every sample's span and value by start (``PieceRuns``, in bounded memory) and cuts them
/// at the same intervals' boundaries.
struct StatisticsAccumulator {
    /// The figures of one interval (and source) that are counted as samples come.
    private struct Figures {
        var count = 0
        var values = 0
        var sum = CompensatedSum()
        var minimum = Double.infinity
        var maximum = -Double.infinity
        var mostRecent: (value: Double, end: Int64, start: Int64)?

        /// Counts one sample spanning `start…end` with `value` (`nil`: a sample without a
        /// quantity).
        mutating func count(_ value: Double?, start: Int64, end: Int64) {
            count += 1
            guard let value else { return }
            values += 1
            sum.add(value)
            minimum = min(minimum, value)
            maximum = max(maximum, value)
            if mostRecent.map({ (end, start) >= ($0.end, $0.start) }) ?? true { mostRecent = (value, end, start) }
        }
    }

    /// An interval's key (``LocalInterval/key``) and a source (-1 when sources are merged).
    private struct Key: Hashable {
        var start: Int64
        var source: Int
    }

    /// The query the figures answer.
    let query: StatisticsQuery
    /// The unit the figures are in (`nil` for types without units, or before the first
    /// sample of an unknown quantity type says it).
    private var unit: HealthUnit?
    /// The unit's text, also for an unknown unit all samples share.
    private var unitText: String?
    /// The conversion to the figures' unit, by the sample unit's text (`nil`: the figures'
    /// unit itself, which needs none).
    private var converters: [String: (@Sendable (Double) -> Double)?] = [:]
    /// The sources met so far, by number.
    private var sources: [String] = []
    /// The number of each source in ``sources``.
    private var sourceIndex: [String: Int] = [:]
    /// The figures counted as samples come, but for ``currentKey``'s.
    private var figures: [Key: Figures] = [:]
    /// The last sample's key (`nil` before the first sample), whose figures are taken out
    /// of ``figures`` into ``currentFigures`` while samples keep to that key (most do:
    /// samples come in time order), so most add to them without a lookup.
    private var currentKey: Key?
    /// The figures of ``currentKey``, counted in place (a copy in and out for every sample
    /// stalled the adding on its ~100 bytes).
    private var currentFigures = Figures()
    /// Every sample's span, value, source and clock, for the merge (sums and durations only).
    private let pieces: PieceRuns
    /// How many pieces have come.
    private var pieceCount = 0
    /// Whether the figures asked for need ``pieces``.
    private let needsPieces: Bool
    /// Whether sources get rows of their own (``StatisticsOptions/separateBySource``).
    private let separate: Bool
    /// Whether the type is a quantity type (whose samples have values).
    private let isQuantity: Bool
    /// The clocks samples follow: the query's alone, or with ``StatisticsTimeZone/recorded``
    /// one per (offset, zone) the samples were recorded with (``LocalClock``).
    private var clocks: [LocalClock] = []
    /// The index in ``clocks`` of each recorded offset and zone.
    private var clockIndex: [ClockKey: Int] = [:]
    /// The intervals met so far, by key.
    private var intervals: [Int64: LocalInterval] = [:]
    /// The last sample's clock key, clock and interval, which the next sample most often
    /// shares (samples come in time order); ``lastClock`` is -1 before the first sample.
    /// Kept as separate properties, not an optional tuple, so that testing them copies
    /// (and retains) nothing.
    private var lastClockKey = ClockKey(offset: 0, zone: nil)
    private var lastClock = -1
    private var lastInterval = LocalInterval(key: 0, start: 0, end: 0, startOffset: 0, endOffset: 0, localStart: 0)
    /// The last sample's unit and its conversion (`nil` before the first, and for the
    /// query's own unit), and its source and number (-1 before the first): runs of samples
    /// share them, so most samples hash neither string.
    private var lastUnitText: String?
    private var lastConvert: (@Sendable (Double) -> Double)?
    private var lastSourceName = ""
    private var lastSourceID = -1

    /// A recorded offset and zone.
    private struct ClockKey: Hashable {
        var offset: Int16
        var zone: String?
    }

    /// An accumulator for `query`, which must be valid (``StatisticsQuery/validate()``),
    /// whose samples for the merge are held as `pieces` says (their scratch runs sealed for
    /// an encrypted store).
    init(_ query: StatisticsQuery, pieces: PieceRuns = PieceRuns()) throws {
        self.query = query
        self.pieces = pieces
        let info = QuantityTypeInfo.of(query.type.identifier)
        unit = query.unit ?? info?.unit
        unitText = unit?.text
        separate = query.options.contains(.separateBySource)
        isQuantity = query.type.kind == .quantity
        needsZones = query.timeZone == .recorded
        needsPieces = (query.type.kind == .quantity && query.options.contains(.sum)) || query.options.contains(.duration)
        switch query.timeZone {
        case .fixed(let minutes): clocks = [.fixed(offsetMinutes: minutes)]
        case .named(let rules): clocks = [.zone(rules)]
        case .recorded: clocks = []
        }
    }

    /// Whether ``add(start:end:value:unit:source:offsetMinutes:zone:)`` needs each sample's
    /// `HKTimeZone` metadata.
    let needsZones: Bool

    /// Counts one sample; `offsetMinutes` is the offset its start was recorded with and
    /// `zone` its `HKTimeZone` metadata (both used only by ``StatisticsTimeZone/recorded``).
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a value whose unit does not convert
    ///   to the query's.
    mutating func add(start: Int64, end: Int64, value: Double?, unit sampleUnit: String, source: String, offsetMinutes: Int16 = 0, zone: String? = nil) throws {
        var value = value
        if isQuantity, let raw = value {
            if lastUnitText == sampleUnit {
                if let lastConvert { value = lastConvert(raw) }
            } else {
                value = try convert(raw, from: sampleUnit)
            }
        }
        let sourceID: Int
        if lastSourceID >= 0, lastSourceName == source {
            sourceID = lastSourceID
        } else {
            if let known = sourceIndex[source] {
                sourceID = known
            } else {
                sourceID = sources.count
                sources.append(source)
                sourceIndex[source] = sourceID
            }
            lastSourceName = source
            lastSourceID = sourceID
        }
        let clockKey = ClockKey(offset: needsZones ? offsetMinutes : 0, zone: needsZones ? zone : nil)
        let interval: LocalInterval
        let clock: Int
        if lastClock >= 0, lastClockKey == clockKey, start >= lastInterval.start, start < lastInterval.end {
            interval = lastInterval
            clock = lastClock
        } else {
            clock = needsZones ? self.clock(clockKey) : 0
            interval = self.interval(of: start, clock: clock)
            if intervals[interval.key] == nil { intervals[interval.key] = interval }
            lastClockKey = clockKey
            lastClock = clock
            lastInterval = interval
        }
        let key = Key(start: interval.key, source: separate ? sourceID : -1)
        if currentKey != key {
            if let held = currentKey { figures[held] = currentFigures }
            currentFigures = figures.removeValue(forKey: key) ?? Figures()
            currentKey = key
        }
        currentFigures.count(isQuantity ? value : nil, start: start, end: end)
        if needsPieces {
            try pieces.append(CumulativeMerge.Piece(start: start, end: end, value: value ?? 0, order: pieceCount, source: Int32(sourceID), clock: Int32(clock)))
            pieceCount += 1
        }
    }

    /// Counts the sample a stored line holds (``StoredLineView/SummaryReader``), whose
    /// texts are in `texts`.
    mutating func add(_ fields: StoredLineView.SummaryReader.Fields, _ texts: SampleTexts) throws {
        try add(
            start: fields.start, end: fields.end, value: fields.value, unit: texts.unit, source: texts.source, offsetMinutes: fields.startOffset,
            zone: texts.zone)
    }

    /// The index of the clock of a sample recorded at `key` (``StatisticsTimeZone/recorded``).
    private mutating func clock(_ key: ClockKey) -> Int {
        if let known = clockIndex[key] { return known }
        clockIndex[key] = clocks.count
        clocks.append(LocalClock(recordedOffsetMinutes: Int(key.offset), zone: key.zone))
        return clocks.count - 1
    }

    /// The interval holding `instant` on clock `clock`, keyed by its local start with
    /// ``StatisticsTimeZone/recorded`` (one row per local calendar interval).
    private func interval(of instant: Int64, clock: Int) -> LocalInterval {
        var local = query.interval(of: instant, on: clocks[clock])
        if needsZones { local.key = local.localStart }
        return local
    }

    /// `value` in `sampleUnit`, in the query's unit.
    private mutating func convert(_ value: Double, from sampleUnit: String) throws -> Double {
        if let converter = converters[sampleUnit] {
            lastUnitText = sampleUnit
            lastConvert = converter
            return converter?(value) ?? value
        }
        let converter: (@Sendable (Double) -> Double)?
        if unitText == nil || unitText == sampleUnit {
            converter = nil
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
        converters[sampleUnit] = .some(converter)
        lastUnitText = sampleUnit
        lastConvert = converter
        return converter?(value) ?? value
    }

    /// The statistics, by interval, then source: the intervals that meet the predicate's
    /// date range (a sample that overlaps the range's start adds nothing to the interval
    /// before it, as HealthKit enumerates statistics from the range's start).
    ///
    /// - Throws: ``HealthLogError/Code/io`` or ``HealthLogError/Code/corrupt`` when the
    ///   merge's scratch runs cannot be written or read back.
    func results() throws -> [Statistics] {
        let o = query.options
        var sums: [Key: CompensatedSum] = [:]
        var durations: [Key: Int64] = [:]
        var intervals = self.intervals
        var figures = self.figures
        if let currentKey { figures[currentKey] = currentFigures }
        if needsPieces {
            let bounds = { instant, clock in interval(of: instant, clock: clock) }
            let merges = separate ? sources.count : 1
            let rankOf: [Int]
            if separate {
                rankOf = Array(repeating: 0, count: sources.count)
            } else {
                let order = SourcePriority(query.sourcePriority).ordered(sources)
                let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
                rankOf = sources.map { position[$0] ?? 0 }
            }
            // The key the merge counted in last, and its sum and duration so far, held out
            // of the tables while the merge keeps to it (most stretches do), so most values
            // add up without a lookup; each key's values still add up in the merge's order.
            var sumKey: Key?
            var sum = CompensatedSum()
            var durationKey: Key?
            var duration: Int64 = 0
            var each = (0..<merges).map { merge in
                let source = separate ? merge : -1
                return CumulativeMerge(
                    bounds: bounds, rankOf: rankOf,
                    kept: { interval, value in
                        let key = Key(start: interval.key, source: source)
                        if key != sumKey {
                            if let sumKey { sums[sumKey] = sum }
                            if intervals[interval.key] == nil { intervals[interval.key] = interval }
                            sum = sums[key] ?? CompensatedSum()
                            sumKey = key
                        }
                        sum.add(value)
                    },
                    covered: { interval, micros in
                        let key = Key(start: interval.key, source: source)
                        if key != durationKey {
                            if let durationKey { durations[durationKey] = duration }
                            if intervals[interval.key] == nil { intervals[interval.key] = interval }
                            duration = durations[key] ?? 0
                            durationKey = key
                        }
                        duration += micros
                    })
            }
            try pieces.forEach { piece in each[separate ? Int(piece.source) : 0].add(piece) }
            for k in each.indices { each[k].finish() }
            if let sumKey { sums[sumKey] = sum }
            if let durationKey { durations[durationKey] = duration }
        }
        let range = query.predicate.dateRange
        let localRange = query.predicate.localDateRange
        let keys = Set(figures.keys).union(sums.keys).union(durations.keys)
        return keys.sorted { ($0.start, $0.source < 0 ? "" : sources[$0.source]) < ($1.start, $1.source < 0 ? "" : sources[$1.source]) }.compactMap { key in
            guard let i = intervals[key.start], range.end.map({ i.start < $0 }) ?? true, range.start.map({ i.end > $0 }) ?? true else { return nil }
            let localEnd = i.localStart + (i.end - i.start) + Int64(i.endOffset - i.startOffset) * 60_000_000
            guard localRange.end.map({ i.localStart < $0 }) ?? true, localRange.start.map({ localEnd > $0 }) ?? true else { return nil }
            let f = figures[key] ?? Figures()
            let hasValues = f.values > 0
            let label = query.label(of: i)
            return Statistics(
                start: Timestamp(microseconds: i.start, offsetMinutes: Int16(i.startOffset), isZulu: i.startOffset == 0, fractionDigits: 0),
                end: Timestamp(microseconds: i.end, offsetMinutes: Int16(i.endOffset), isZulu: i.endOffset == 0, fractionDigits: 0),
                label: label, unit: isQuantity ? unitText ?? "" : "", count: f.count,
                sum: o.contains(.sum) && isQuantity ? (sums[key]?.value ?? 0) : nil,
                average: o.contains(.average) && hasValues ? f.sum.value / Double(f.values) : nil,
                minimum: o.contains(.minimum) && hasValues ? f.minimum : nil,
                maximum: o.contains(.maximum) && hasValues ? f.maximum : nil,
                duration: o.contains(.duration) ? Double(durations[key] ?? 0) / 1_000_000 : nil,
                mostRecent: o.contains(.mostRecent) ? f.mostRecent?.value : nil,
                source: key.source < 0 ? nil : sources[key.source],
                mostRecentStart: o.contains(.mostRecent) ? f.mostRecent.map { Timestamp(microseconds: $0.start) } : nil,
                mostRecentEnd: o.contains(.mostRecent) ? f.mostRecent.map { Timestamp(microseconds: $0.end) } : nil)
        }
    }
}
