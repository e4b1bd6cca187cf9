#if !canImport(Darwin)
internal import HealthLog

/// Where an anchored query stopped, as HealthKit's `HKQueryAnchor`: pass it to the next
/// query to get only what changed since. It archives with `NSKeyedArchiver` (secure coding,
/// keys `rowid` and `token`) and encodes with `Codable` as the store's anchor token.
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, Codable, @unchecked Sendable {
    /// The store's anchor.
    let anchor: QueryAnchor

    init(_ anchor: QueryAnchor) {
        self.anchor = anchor
    }

    /// The anchor for an integer anchor value of HealthKit's older API (a sequence number).
    public convenience init(fromValue value: Int) {
        self.init(QueryAnchor(fromValue: UInt64(max(0, value))))
    }

    /// Anchors decode under secure coding.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the anchor.
    public func encode(with coder: NSCoder) {
        coder.encode(Int64(bitPattern: anchor.seq), forKey: "rowid")
        coder.encode(anchor.token as NSString, forKey: "token")
    }

    /// An archived anchor; `nil` when the archive holds none.
    public init?(coder: NSCoder) {
        guard let token = coder.decodeObject(of: NSString.self, forKey: "token"), let anchor = try? QueryAnchor(token: token as String) else {
            return nil
        }
        self.anchor = anchor
    }

    /// The anchor itself: anchors are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Encodes the anchor as the store's token.
    public func encode(to encoder: any Encoder) throws {
        try anchor.encode(to: encoder)
    }

    /// Decodes an anchor from the store's token.
    public init(from decoder: any Decoder) throws {
        anchor = try QueryAnchor(from: decoder)
    }

    /// Equal objects hash alike.
    public override var hash: Int { anchor.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.anchor == anchor }
    /// A description, for logs.
    public override var description: String { "<HKQueryAnchor: \(anchor.seq)>" }
}

/// The anchor value that asks for every matching sample (HealthKit's older integer API).
public let HKAnchoredObjectQueryNoAnchor = 0
/// The limit that asks for every matching sample.
public let HKObjectQueryNoLimit = 0
#endif
