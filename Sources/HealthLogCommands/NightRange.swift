/// The nights a `--start`/`--end` range keeps: those whose label, the morning they end,
/// lies in [start, end) by date (the date an instant is written with).
struct NightRange {
    /// How far the samples' range is widened on each side to hold every such night whole: a day, in µs.
    static let margin: Int64 = 86_400_000_000
    /// The first label kept, `YYYY-MM-DD`.
    let first: String?
    /// The first label past the range.
    let end: String?

    /// The nights of `--start start` to `--end end` (dates or instants as given).
    init(start: String?, end: String?) {
        first = start.map { String($0.prefix(10)) }
        self.end = end.map { String($0.prefix(10)) }
    }

    /// Whether the night named `label` is in the range.
    func contains(_ label: String) -> Bool {
        (first.map { label >= $0 } ?? true) && (end.map { label < $0 } ?? true)
    }
}
