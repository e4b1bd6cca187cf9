#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps in the pages of a buffer about to be written, with one system call instead of a
/// page fault for each page first touched (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14).
enum Prefault {
    /// `MADV_POPULATE_WRITE`.
    private static let populateWrite: Int32 = 23

    /// Maps in the whole pages within `buffer`'s first `count` bytes. Best effort: where the
    /// call is missing or refused, the pages are faulted in when written, as without it.
    static func populate(_ buffer: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
        let page = Int(getpagesize())
        let start = (Int(bitPattern: buffer) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: buffer) + count) & ~(page - 1)
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, end - start, populateWrite)
        #endif
    }
}
