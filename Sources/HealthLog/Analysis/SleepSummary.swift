/// One night of sleep with its sources merged (what `healthlog sleep` prints): the time in
/// bed and asleep, each stage, the time awake, and when the night's first sample began and
/// its last one ended.
///
/// Nights are those of ``SleepNight``: noon to noon on the query's clock, named by the
/// morning they end, a sample counting in the night holding its start. Within a night, time
/// is cut into stretches at every sample's start and end, and each stretch counts once:
///
/// - in bed: every stretch some sample covers (in bed, asleep in any stage, or awake), so a
///   watch that records only stages still has a time in bed, and a phone's in-bed sample
///   under the watch's stages is not counted twice;
/// - the stages and awake: a stretch counts in one stage, that of the highest-priority
///   source (the sources named first, then Apple Watch, then iPhone and
///   iPad, then other sources) with a stage or awake sample covering it; where that
///   source's own samples overlap, awake wins, then deep, REM, core, and asleep with no
///   stage last.
///
/// So when a watch and a phone both record a night, the watch's stages count where the
/// watch covers the night and the phone's samples fill only what the watch left out.
public struct SleepSummary: Sendable, Hashable {
    /// The morning the night ends, `YYYY-MM-DD`.
    public var label: String
    /// The noon the night starts at.
    public var start: Timestamp
    /// The noon it ends at.
    public var end: Timestamp
    /// Seconds in bed: covered by any sample, once.
    public var inBed: Double
    /// Seconds of core sleep.
    public var core: Double
    /// Seconds of deep sleep.
    public var deep: Double
    /// Seconds of REM sleep.
    public var rem: Double
    /// Seconds asleep with no stage recorded.
    public var unspecified: Double
    /// Seconds awake.
    public var awake: Double
    /// When the night's first sample starts, at its local offset on the query's clock.
    public var first: Timestamp
    /// When the night's last sample ends, at its local offset on the query's clock.
    public var last: Timestamp
    /// The sources with samples in the night, highest priority first.
    public var sources: [String]
    /// How many samples the night holds.
    public var count: Int

    /// Seconds asleep: core, deep, REM and asleep with no stage.
    public var asleep: Double { core + deep + rem + unspecified }

    /// Asleep over in bed, from 0 to 1; `nil` when no time is in bed.
    public var efficiency: Double? { inBed > 0 ? asleep / inBed : nil }
}

/// Gathers sleep samples by night and merges each night's sources into a ``SleepSummary``.
struct SleepSummaryAccumulator {
    /// One sample of a night.
    private struct Piece {
        var start: Int64
        var end: Int64
        var stage: SleepNight.Stage
        var source: String
    }

    /// One night's samples so far.
    private struct Night {
        var bounds: NightBounds
        var pieces: [Piece] = []
        var first: Timestamp
        var last: Timestamp
    }

    /// Whose clock the nights follow.
    private let clock: SampleClock
    /// Which source wins where sources overlap.
    private let priority: SourcePriority
    /// The nights so far, by ``NightBounds/key``.
    private var nights: [Int64: Night] = [:]

    /// No nights yet, on the clock of `timeZone`, sources ranked by `priority`.
    init(timeZone: StatisticsTimeZone, priority: SourcePriority) {
        clock = SampleClock(timeZone)
        self.priority = priority
    }

    /// Takes one sample of `stage` from `source`, from `start` to `end`, in `zone` (its
    /// `HKTimeZone`).
    mutating func add(start: Timestamp, end: Timestamp, stage: SleepNight.Stage, source: String, zone: String?) {
        let bounds = clock.night(of: start.microseconds, offsetMinutes: start.offsetMinutes, zone: zone)
        let first = clock.timestamp(start.microseconds, offsetMinutes: start.offsetMinutes, zone: zone)
        let last = clock.timestamp(end.microseconds, offsetMinutes: end.offsetMinutes, zone: zone)
        var night = nights[bounds.key] ?? Night(bounds: bounds, first: first, last: last)
        if first < night.first { night.first = first }
        if last > night.last { night.last = last }
        night.pieces.append(Piece(start: start.microseconds, end: max(start.microseconds, end.microseconds), stage: stage, source: source))
        nights[bounds.key] = night
    }

    /// The nights, in order.
    func results() -> [SleepSummary] {
        nights.sorted { $0.key < $1.key }.map { summary($0.value) }
    }

    /// Where one source's samples overlap, the stage that counts: lower wins.
    private static func precedence(_ stage: SleepNight.Stage) -> Int {
        switch stage {
        case .awake: 0
        case .deep: 1
        case .rem: 2
        case .core: 3
        case .asleep: 4
        case .inBed: 5
        }
    }

    /// Whether `a` counts rather than `b` where both cover a stretch: the higher-priority
    /// source (lower in `rank`, each source's place in the night's priority order), then
    /// the stage that takes precedence.
    private static func wins(_ a: Piece, over b: Piece, _ rank: [String: Int]) -> Bool {
        let (ra, rb) = (rank[a.source] ?? 0, rank[b.source] ?? 0)
        return ra != rb ? ra < rb : precedence(a.stage) < precedence(b.stage)
    }

    /// The night's figures, its stretches counted once (see ``SleepSummary``).
    private func summary(_ night: Night) -> SleepSummary {
        let pieces = night.pieces
        let sources = priority.ordered(Array(Set(pieces.map(\.source))))
        let rank = Dictionary(uniqueKeysWithValues: sources.enumerated().map { ($1, $0) })
        var edges: [(time: Int64, isStart: Bool, index: Int)] = []
        for (index, piece) in pieces.enumerated() where piece.end > piece.start {
            edges.append((piece.start, true, index))
            edges.append((piece.end, false, index))
        }
        edges.sort { ($0.time, $0.isStart ? 1 : 0) < ($1.time, $1.isStart ? 1 : 0) }
        var inBed: Int64 = 0
        var stages: [SleepNight.Stage: Int64] = [:]
        var active: [Int] = []
        var previous = Int64.min
        for edge in edges {
            if !active.isEmpty, edge.time > previous {
                let stretch = edge.time - previous
                inBed += stretch
                let winner = active.filter { pieces[$0].stage != .inBed }.min { Self.wins(pieces[$0], over: pieces[$1], rank) }
                if let winner { stages[pieces[winner].stage, default: 0] += stretch }
            }
            if edge.isStart {
                active.append(edge.index)
            } else if let at = active.firstIndex(of: edge.index) {
                active.remove(at: at)
            }
            previous = edge.time
        }
        func seconds(_ stage: SleepNight.Stage) -> Double { Double(stages[stage] ?? 0) / 1_000_000 }
        return SleepSummary(
            label: night.bounds.label, start: night.bounds.start, end: night.bounds.end, inBed: Double(inBed) / 1_000_000, core: seconds(.core),
            deep: seconds(.deep), rem: seconds(.rem), unspecified: seconds(.asleep), awake: seconds(.awake), first: night.first, last: night.last,
            sources: sources, count: pieces.count)
    }
}
