/// A value bound to a statement's parameter: SQLite's storage classes, without blobs.
enum SQLiteValue: Equatable {
    /// `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
}
