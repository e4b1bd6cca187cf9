#if !canImport(Darwin)
internal import HealthLog

extension Date {
    /// The date as healthlog's timestamp, with the local UTC offset of this process at that
    /// instant (what a sample saved here records).
    var timestamp: Timestamp {
        let micros = Int64((timeIntervalSince1970 * 1_000_000).rounded())
        let offset = TimeZone.current.secondsFromGMT(for: self) / 60
        return Timestamp(microseconds: micros, offsetMinutes: Int16(offset), isZulu: offset == 0)
    }

    /// The instant of a healthlog timestamp.
    init(_ timestamp: Timestamp) {
        self.init(timeIntervalSince1970: Double(timestamp.microseconds) / 1_000_000)
    }
}
#endif
