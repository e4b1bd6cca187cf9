import HealthLog

/// The `--utc-offset` option's value: `+HH:MM` or `-HH:MM`.
enum UTCOffset {
    /// Minutes east of UTC; bad usage when malformed.
    static func parse(_ text: String) throws -> Int {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == 43 || bytes[0] == 45, bytes[3] == 58, let h = Int(String(text.dropFirst().prefix(2))),
            let m = Int(String(text.suffix(2))), h <= 14, m <= 59
        else { throw HealthLogError(.badUsage, "--utc-offset must be +HH:MM or -HH:MM, not '\(text)'") }
        return (bytes[0] == 45 ? -1 : 1) * (h * 60 + m)
    }
}
