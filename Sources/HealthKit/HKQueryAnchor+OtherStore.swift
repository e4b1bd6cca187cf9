#if !canImport(Darwin)
internal import HealthLog

/// Anchors another store issued: HealthKit starts such a query over, so the module reads
/// them as the beginning, where the store itself refuses them.
extension HKQueryAnchor {
    /// Where a query with `anchor` starts on `store`: `anchor`, or the beginning when
    /// another store issued it (an anchor of this store, a bare number or none is kept, and
    /// whatever else the store refuses stays refused).
    static func start(_ anchor: HKQueryAnchor?, on store: HealthStore) throws -> QueryAnchor {
        guard let anchor = anchor?.anchor else { return .beginning }
        guard let tag = storeTag(anchor), let own = storeTag(try store.headAnchor()), tag != own else { return anchor }
        return .beginning
    }

    /// The bytes that name the issuing store in `anchor`'s token (its format's store tag),
    /// or `nil` for `0` and bare numbers.
    private static func storeTag(_ anchor: QueryAnchor) -> [UInt8]? {
        let token = anchor.token
        guard !token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: base64), bytes.count == 21 || bytes.count == 25 else { return nil }
        return Array(bytes[1..<9])
    }
}
#endif
