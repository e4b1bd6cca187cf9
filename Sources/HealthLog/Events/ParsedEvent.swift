/// One event line as parsed: byte ranges into the line for the values that are copied
/// verbatim into the stored line, and decoded values for those the store reasons about.
struct ParsedEvent {
    /// A `value` field: a number or a string token.
    enum Value {
        /// A JSON number; `isInteger` when it has no fraction or exponent.
        case number(Range<Int>, isInteger: Bool)
        /// A JSON string token, quotes included.
        case string(Range<Int>)
    }

    /// Whether the line deletes (`"op":"delete"`) rather than adds.
    var isDelete = false
    /// The `uuid`, if given.
    var uuid: SampleUUID?
    /// The `uuid` token, quotes included.
    var uuidToken: Range<Int>?
    /// The `type` identifier's characters (no quotes; identifiers have no escapes).
    var type: Range<Int>?
    /// The kind the type's prefix names.
    var kind: SampleKind?
    /// The full identifier a short `type` (`HeartRate`, any case) stands for; `nil` when
    /// the line gives a full identifier. A line with one is rewritten before it is stored
    /// (``InputChecker``), so stored lines always hold full identifiers.
    var resolvedType: String?
    /// `start`: the instant and its token.
    var start: Timestamp?
    /// The `start` token, quotes included.
    var startToken: Range<Int>?
    /// `end`: the instant.
    var end: Timestamp?
    /// The `end` token, quotes included.
    var endToken: Range<Int>?
    /// `value`.
    var value: Value?
    /// String tokens (quotes included) copied verbatim.
    var unit: Range<Int>?, source: Range<Int>?, sourceVersion: Range<Int>?, device: Range<Int>?, activity: Range<Int>?
    /// `duration`, a number token.
    var duration: Range<Int>?
    /// The `metadata` object token.
    var metadata: Range<Int>?
    /// The `HKMetadataKeySyncIdentifier` value token inside `metadata`.
    var syncIdentifier: Range<Int>?
    /// The `HKMetadataKeySyncVersion` value token inside `metadata`.
    var syncVersionToken: Range<Int>?
    /// The sync version's value.
    var syncVersion: Int64?
    /// The `totals` object token.
    var totals: Range<Int>?
    /// The `objects` member UUIDs.
    var objects: [SampleUUID]?
    /// A workout route's `workout`: the UUID of the workout it belongs to.
    var workout: SampleUUID?
    /// A workout route's `locations` array token.
    var locations: Range<Int>?
    /// An electrocardiogram's `voltages` array token.
    var voltages: Range<Int>?
}

/// A problem with one field of an input line (the caller adds the line number).
struct FieldError: Error {
    /// The field's name, or `nil` when the line as a whole is malformed.
    var field: String?
    /// What is wrong.
    var reason: String
}
