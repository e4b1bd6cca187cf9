extension String {
    /// `count` and the noun in the number it takes: `1 batch`, `2 batches`, `0 events`.
    /// The plural adds `es` after `s`, `x`, `ch` or `sh`, else `s`.
    init(counting count: some BinaryInteger, _ singular: String) {
        guard count != 1 else {
            self = "1 \(singular)"
            return
        }
        let sibilant = ["s", "x", "ch", "sh"].contains { singular.hasSuffix($0) }
        self = "\(count) \(singular)\(sibilant ? "es" : "s")"
    }
}
