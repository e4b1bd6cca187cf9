@testable import HealthLog

extension UUIDRunSet {
    /// `events` sorted by UUID, each UUID's add and delete folded into one entry, in a new
    /// array (``combine(_:into:)``).
    static func combine(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [UUIDRun.Entry] {
        var out: [UUIDRun.Entry] = []
        combine(events, into: &out)
        return out
    }
}
