extension String {
    /// Whether `other` is the same text, the byte counts compared first: element and
    /// attribute names mostly differ in length, and `==` on two different short strings
    /// is a call into the library's comparison, made for every attribute a mapper looks up.
    func isSameName(_ other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}
