#if !canImport(Darwin)
internal import HealthLog

/// The anchor a running query's last delivery reached: where the next delivery's changes
/// start.
final class DeliveredAnchor: @unchecked Sendable {
    private let lock = NSLock()
    private var anchor: QueryAnchor

    init(_ anchor: QueryAnchor) {
        self.anchor = anchor
    }

    /// The anchor so far, which then becomes `next` (when given).
    func advance(to next: QueryAnchor?) -> QueryAnchor {
        lock.withLock {
            defer { anchor = next ?? anchor }
            return anchor
        }
    }
}
#endif
