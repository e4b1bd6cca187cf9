/// A position in a store's log, as an anchored query takes and returns it: HealthKit's
/// `HKQueryAnchor` for healthlog.
///
/// Its ``token`` is opaque, printable and URL-safe. It names the store, the sequence
/// number and, once the store was compacted, the compactions it had (so an anchor from
/// before a compaction is told from one issued after it), with a checksum, so an anchor
/// from another store or a mistyped one is refused rather than silently read as "from the
/// beginning" (<doc:Format#Anchors> gives its bytes). `0` (the ``beginning``) and a bare
/// decimal sequence number are accepted too, as `HKQueryAnchor(fromValue:)` is; those
/// carry no store and fit any store.
///
/// ```swift
/// let anchor = try QueryAnchor(token: savedText)
/// let result = try await AnchoredObjectQueryDescriptor(anchor: anchor).result(for: store)
/// save(result.newAnchor.token)
/// ```
public struct QueryAnchor: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The sequence number of the last event the anchor covers (0: nothing yet).
    public let seq: UInt64
    /// The tag of the store that issued the anchor, or `nil` for `0` and bare numbers.
    let storeTag: UInt64?
    /// How many compactions the store had committed when it issued the anchor (0 for bare
    /// numbers, version-1 tokens and stores never compacted).
    let generation: UInt32

    /// The position before the first event.
    public static let beginning = QueryAnchor(seq: 0, storeTag: nil)

    init(seq: UInt64, storeTag: UInt64?, generation: UInt32 = 0) {
        self.seq = seq
        self.storeTag = storeTag
        self.generation = generation
    }

    /// An anchor at a bare sequence number (like `HKQueryAnchor(fromValue:)`).
    public init(fromValue seq: UInt64) {
        self.init(seq: seq, storeTag: nil)
    }

    /// Parses a token, `0` or a decimal sequence number; throws ``HealthLogError/Code/anchorRefused``
    /// when it is malformed.
    public init(token: String) throws {
        if !token.isEmpty, token.utf8.count <= 20, token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let seq = UInt64(token) {
            self.init(seq: seq, storeTag: nil)
            return
        }
        guard let bytes = Base64URL.decode(token), (bytes.count == 21 && bytes[0] == 1) || (bytes.count == 25 && bytes[0] == 2),
            CRC32C.checksum(bytes[0..<(bytes.count - 4)]) == ByteReaderValue.u32(bytes, bytes.count - 4)
        else {
            throw HealthLogError(.anchorRefused, "anchor '\(token.prefix(80))' is malformed: expected a token printed by healthlog, 0, or a sequence number")
        }
        var reader = ByteReader(bytes, at: 1)
        let tag = try reader.read(UInt64.self)
        let seq = try reader.read(UInt64.self)
        let generation = bytes[0] == 2 ? try reader.read(UInt32.self) : 0
        self.init(seq: seq, storeTag: tag, generation: generation)
    }

    /// The printable token.
    public var token: String {
        guard let storeTag else { return String(seq) }
        var w = ByteWriter()
        w.append(UInt8(generation == 0 ? 1 : 2))
        w.append(storeTag)
        w.append(seq)
        if generation != 0 { w.append(generation) }
        w.appendChecksum()
        return Base64URL.encode(w.bytes)
    }

    /// The token.
    public var description: String { token }

    /// Orders by sequence number (meaningful within one store).
    public static func < (a: QueryAnchor, b: QueryAnchor) -> Bool { a.seq < b.seq }

    /// Encodes as the token string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(token)
    }

    /// Decodes from the token string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(token: try container.decode(String.self))
    }

    /// Checks that the anchor may be used on a store with `tag` whose head is `head`;
    /// throws ``HealthLogError/Code/anchorRefused`` otherwise (never clamps, never restarts).
    func validate(storeTag tag: UInt64, head: UInt64) throws {
        if let storeTag, storeTag != tag {
            throw HealthLogError(.anchorRefused, "anchor \(token) belongs to another store")
        }
        guard seq <= head else {
            let what = storeTag == nil ? "anchor \(token)" : "anchor \(token) (sequence \(seq))"
            throw HealthLogError(.anchorRefused, "\(what) is past the store's head, sequence \(head)")
        }
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            if i + 1 < bytes.count { out.append(alphabet[Int(v >> 6 & 63)]) }
            if i + 2 < bytes.count { out.append(alphabet[Int(v & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `text`; `nil` on any character outside the alphabet or a bad length.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt32] = []
        for c in text.utf8 {
            guard let k = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt32(k))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var v: UInt32 = 0
            for (k, x) in chunk.enumerated() { v |= x << (18 - 6 * UInt32(k)) }
            out.append(UInt8(v >> 16 & 0xFF))
            if chunk.count > 2 { out.append(UInt8(v >> 8 & 0xFF)) }
            if chunk.count > 3 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }
}
