/// The Levenshtein distance between two strings (insertions, deletions and substitutions
/// of characters), capped: what "did you mean …" hints are chosen by.
enum EditDistance {
    /// The distance between `a` and `b`, or `limit + 1` once it is known to exceed `limit`.
    static func between(_ a: String, _ b: String, limit: Int) -> Int {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard abs(x.count - y.count) <= limit else { return limit + 1 }
        var previous = Array(0...y.count)
        var current = Array(repeating: 0, count: y.count + 1)
        guard !x.isEmpty else { return min(y.count, limit + 1) }
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1..<(y.count + 1) {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return min(previous[y.count], limit + 1)
    }
}
