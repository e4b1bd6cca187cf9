import HealthLog

/// The day numbers of the dates an export's dates fall on, remembered for the next one:
/// an export writes its records in date order, so nearly every date falls on the day
/// before it did. One mapper's (``LineWorkspace``), used by one thread at a time.
final class ExportDays {
    /// The last date's `YYYY-MM-DD` bytes, as two words, and its days since 1970-01-01;
    /// `nil` before the first.
    private var last: (head: UInt64, tail: UInt16, days: Int64)?

    /// Nothing remembered yet.
    init() {}

    /// The days since 1970-01-01 of the date `YYYY-MM-DD` at the start of `bytes` (at least
    /// 10 bytes), or `nil` when it is not a date ``Timestamp/init(iso8601:)`` takes.
    func days(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        let head = raw.loadUnaligned(as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        if let last, last.head == head, last.tail == tail { return last.days }
        let midnight = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<10]), as: UTF8.self) + "T00:00:00Z"
        guard let instant = Timestamp(iso8601: midnight) else { return nil }
        let days = instant.microseconds / 86_400_000_000
        last = (head, tail, days)
        return days
    }
}
