/// A JSON string token (quotes included) borrowed from the line being parsed, hashed and
/// compared by its bytes, so a `Set` of them finds a repeated key in one pass over an object
/// (linear in its size, where comparing each key with every earlier one was quadratic).
///
/// Keys are compared as written: `"a"` and `"\u0061"` are different tokens.
struct JSONKeyToken: Hashable {
    /// The token's bytes; valid only while the line they point into is.
    let bytes: UnsafeRawBufferPointer

    /// Hashes the token's bytes.
    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: bytes)
    }

    /// Whether two tokens have the same bytes.
    static func == (a: JSONKeyToken, b: JSONKeyToken) -> Bool {
        a.bytes.elementsEqual(b.bytes)
    }
}
