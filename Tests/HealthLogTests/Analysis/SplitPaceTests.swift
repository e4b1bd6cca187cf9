import Testing
@testable import HealthLog

/// ``SplitPace``: the second reading thread's share of a statistics window follows which
/// thread waited for the other.
@Suite("Split pace")
struct SplitPaceTests {
    @Test("The share starts at the rounded fraction of a window and moves a batch at a time, within the window")
    func steps() {
        var pace = SplitPace(window: 16, share: 0.60)
        #expect(pace.share == 10)
        pace.adjust(callerWaited: false)
        #expect(pace.share == 11)
        pace.adjust(callerWaited: true)
        pace.adjust(callerWaited: true)
        #expect(pace.share == 9)
        for _ in 0..<40 { pace.adjust(callerWaited: true) }
        #expect(pace.share == 0)
        for _ in 0..<40 { pace.adjust(callerWaited: false) }
        #expect(pace.share == 16)
        #expect(SplitPace(window: 16, share: 2).share == 16)
        #expect(SplitPace(window: 16, share: -1).share == 0)
    }
}
