#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAtomicRename

/// Swaps two directory entries in one atomic step (`renameat2(2)` with `RENAME_EXCHANGE`
/// on Linux, `renamex_np(2)` with `RENAME_SWAP` on Apple systems, through `CAtomicRename`), so a path names either
/// the old directory or the new one at every instant, never nothing.
enum DirectorySwap {
    /// Exchanges `a` and `b`, which must be on the same file system.
    static func exchange(_ a: String, _ b: String) throws {
        _ = try retryingOnInterrupt("cannot exchange", path: "\(a) and \(b)") { healthlog_rename_exchange(a, b) }
    }
}
