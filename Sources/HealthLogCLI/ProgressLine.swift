#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on stderr, redrawn in place, shown only when stderr is a terminal.
final class ProgressLine {
    private let label: String
    private let terminal: Terminal
    private let isShown = isatty(2) == 1
    private var lastPercent = -1

    init(_ label: String, _ terminal: Terminal) {
        self.label = label
        self.terminal = terminal
    }

    /// Reports `done` of `total` units.
    func update(_ done: Int, _ total: Int) {
        guard isShown, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastPercent else { return }
        lastPercent = percent
        terminal.errorInPlace("\(label): \(percent)% (\(done)/\(total) batches)")
    }

    /// Ends the line.
    func finish() {
        if isShown, lastPercent >= 0 { terminal.error("") }
    }
}
