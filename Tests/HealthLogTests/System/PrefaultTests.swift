#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import HealthLog

/// A replay maps in its buffers' pages before decompressing into them; only whole pages
/// inside the buffer may be touched.
@Suite("Prefault")
struct PrefaultTests {
    #if os(Linux)
    /// Which of the `pages` pages from `base` are resident (`mincore(2)`).
    private static func resident(_ base: UnsafeMutableRawPointer, pages: Int) -> [Bool] {
        var vector = [UInt8](repeating: 0, count: pages)
        #expect(mincore(base, pages * Int(getpagesize()), &vector) == 0)
        return vector.map { $0 & 1 != 0 }
    }

    /// A fresh anonymous mapping of `pages` pages, none of them touched yet.
    private static func freshPages(_ pages: Int) -> UnsafeMutableRawPointer {
        let mapped = mmap(nil, pages * Int(getpagesize()), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        #expect(mapped != MAP_FAILED)
        return mapped!
    }

    /// Every whole page of the buffer is mapped in; without the call none of a fresh
    /// mapping is.
    @Test func mapsInTheBuffersPages() {
        let page = Int(getpagesize())
        let base = Self.freshPages(8)
        defer { munmap(base, 8 * page) }
        #expect(Self.resident(base, pages: 8) == Array(repeating: false, count: 8))
        Prefault.populate(base, count: 8 * page)
        #expect(Self.resident(base, pages: 8) == Array(repeating: true, count: 8))
    }

    /// Pages the buffer covers only in part (its first and last) are left alone, since the
    /// bytes beside the buffer may belong to someone else.
    @Test func leavesPartlyCoveredPagesAlone() {
        let page = Int(getpagesize())
        let base = Self.freshPages(6)
        defer { munmap(base, 6 * page) }
        Prefault.populate(base + 100, count: 4 * page)
        #expect(Self.resident(base, pages: 6) == [false, true, true, true, false, false])
    }
    #endif
}
