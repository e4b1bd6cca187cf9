/// Runs one job on a second thread while the calling thread runs another, and returns
/// when both have. The two jobs must touch disjoint state; what the second one produced
/// is the caller's once this returns.
enum SecondThread {
    /// Runs `background` on a new thread and `foreground` on this one. When no thread can
    /// be started, `background` runs here after `foreground`: the same result, later.
    static func run(_ background: () -> Void, alongside foreground: () -> Void) {
        withoutActuallyEscaping(background) { body in
            let thread = OSThread.start(body)
            foreground()
            guard let thread else { return body() }
            thread.join()
        }
    }
}
