import CAllocator
import Testing

/// The command-line tools fix glibc's mmap threshold at start, and the import worker its
/// heaps (`main.swift`); the wrappers must reach `mallopt(3)` rather than their stand-ins
/// for other C libraries.
@Suite("Allocator")
struct AllocatorTests {
    /// On glibc, the wrapper sets the threshold (mallopt returns 1); its stand-in returns 0.
    @Test func fixesTheMmapThresholdOnGlibc() {
        #if canImport(Glibc)
        #expect(healthlog_fix_mmap_threshold(4 << 20) == 1)
        #endif
    }

    /// On glibc, the wrapper limits the heaps the import worker's threads share (mallopt
    /// returns 1); its stand-in returns 0.
    @Test func limitsTheArenasOnGlibc() {
        #if canImport(Glibc)
        #expect(healthlog_limit_arenas(2) == 1)
        #endif
    }
}
