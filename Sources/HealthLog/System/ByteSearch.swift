import CByteSearch

/// Finding a short byte string in a stored line with `memmem(3)` (the C library's
/// vectorised search), not a loop over every occurrence of its first byte.
enum ByteSearch {
    /// Whether `needle` occurs in `haystack`.
    static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        return needle.withUnsafeBytes { healthlog_memmem(base, haystack.count, $0.baseAddress!, needle.count) } != nil
    }
}
