/// How many batches of a window a second reading thread takes (from the window's end),
/// steered by the pace of the two threads: one more each time the calling thread found the
/// second thread's part ready, one fewer each time it had to wait for it. The calling
/// thread also adds up every sample, so where the two finish together depends on the
/// machine (how fast a core decompresses and parses against how fast it adds up, and how
/// far apart its two cores are in cache), not on a constant.
struct SplitPace {
    /// The batches in a window: the share never passes it.
    let window: Int
    /// The second thread's batches of the next window the calling thread hands it.
    private(set) var share: Int

    /// A pace for windows of `window` batches, starting with the second thread taking
    /// `share` of each (a fraction from 0 to 1).
    init(window: Int, share: Double) {
        self.window = window
        self.share = min(window, max(0, Int((Double(window) * share).rounded())))
    }

    /// After a window: the second thread takes a batch fewer when the calling thread had to
    /// wait for its part (`callerWaited`), a batch more when it did not.
    mutating func adjust(callerWaited: Bool) {
        share = callerWaited ? max(0, share - 1) : min(window, share + 1)
    }
}
