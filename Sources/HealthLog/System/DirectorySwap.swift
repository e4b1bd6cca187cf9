#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Swaps two directory entries in one atomic step (`renameat2(2)` with `RENAME_EXCHANGE`
/// on Linux, `renamex_np(2)` with `RENAME_SWAP` on Apple systems), so a path names either
/// the old directory or the new one at every instant, never nothing.
enum DirectorySwap {
    /// Exchanges `a` and `b`, which must be on the same file system.
    static func exchange(_ a: String, _ b: String) throws {
        #if canImport(Glibc)
        // glibc has exported renameat2 since 2.28, but Swift's Glibc module does not declare it.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
            throw HealthLogError(.io, "cannot exchange \(a) and \(b): this C library has no renameat2")
        }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        _ = try retryingOnInterrupt("cannot exchange", path: "\(a) and \(b)") { renameat2(AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) }
        #else
        _ = try retryingOnInterrupt("cannot exchange", path: "\(a) and \(b)") { renamex_np(a, b, UInt32(RENAME_SWAP)) }
        #endif
    }
}
