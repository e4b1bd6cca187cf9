extension Timestamp {
    /// The instant in UTC in one fixed RFC 3339 form, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (always
    /// six fraction digits and `Z`), the form tables hold so that every reader parses a
    /// column of them with one format.
    package var utcInstant: String {
        var out: [UInt8] = []
        Timestamp(microseconds: microseconds, offsetMinutes: 0, isZulu: true, fractionDigits: 6).render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The wall-clock time at the recorded offset, `YYYY-MM-DD HH:MM:SS.ffffff` with no
    /// offset: a naive timestamp, in the form both DuckDB's CSV and JSON readers detect.
    package var localWallClock: String {
        var out: [UInt8] = []
        Timestamp(microseconds: microseconds + Int64(offsetMinutes) * 60_000_000, offsetMinutes: 0, isZulu: true, fractionDigits: 6).render(into: &out)
        out[10] = 32
        return String(decoding: out.dropLast(), as: UTF8.self)
    }

    /// The UTC offset the instant was recorded with, as `±HH:MM` (`+00:00` for `Z`).
    package var offsetText: String {
        let total = Int(offsetMinutes)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return (total < 0 ? "-" : "+") + two(abs(total) / 60) + ":" + two(abs(total) % 60)
    }
}
