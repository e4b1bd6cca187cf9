import CAllocator
import Testing

/// The command-line tools fix glibc's mmap threshold at start (`main.swift`); the wrapper
/// must reach `mallopt(3)` rather than its stand-in for other C libraries.
@Suite("Allocator")
struct AllocatorTests {
    /// On glibc, the wrapper sets the threshold (mallopt returns 1); its stand-in returns 0.
    @Test func fixesTheMmapThresholdOnGlibc() {
        #if canImport(Glibc)
        #expect(healthlog_fix_mmap_threshold(4 << 20) == 1)
        #endif
    }
}
