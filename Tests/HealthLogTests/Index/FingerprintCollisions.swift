@testable import HealthLog
import HealthLogTestSupport

/// Pairs of distinct UUIDs with one ``UUIDFingerprint``, found by a birthday search over
/// seeded random UUIDs (about 10 among 300,000), so tests can put a UUID in a store and
/// look up another that shares its fingerprint.
enum FingerprintCollisions {
    /// The pairs found among 300,000 UUIDs drawn from `seed`.
    static func pairs(seed: UInt64) -> [(SampleUUID, SampleUUID)] {
        var random = SeededRandom(state: seed)
        var seen: [UInt32: SampleUUID] = [:]
        seen.reserveCapacity(300_000)
        var out: [(SampleUUID, SampleUUID)] = []
        for _ in 0..<300_000 {
            let uuid = SampleUUID(high: random.next(), low: random.next())
            let fingerprint = UUIDFingerprint.of(uuid)
            if let other = seen[fingerprint], other != uuid { out.append((other, uuid)) } else { seen[fingerprint] = uuid }
        }
        return out
    }

    /// The pairs of seed 1, found once.
    static let shared = pairs(seed: 1)
}
