#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on stderr, redrawn in place, shown only when stderr is a terminal.
final class ProgressLine {
    private let label: String
    private let unit: String
    private let terminal: Terminal
    private let isShown = isatty(2) == 1
    private var lastPercent = -1
    private var lastStage: String?

    init(_ label: String, _ terminal: Terminal, unit: String = "batches") {
        self.label = label
        self.unit = unit
        self.terminal = terminal
    }

    /// Reports `done` of `total` units.
    func update(_ done: Int, _ total: Int) {
        update(stage: nil, done, total)
    }

    /// Reports `done` of `total` units of a named stage (`nil` when there is one stage).
    func update(stage: String?, _ done: Int, _ total: Int) {
        guard isShown, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        let stageChanged = stage != lastStage
        guard percent != lastPercent || stageChanged else { return }
        if stageChanged, lastStage != nil { terminal.error("") }
        lastPercent = percent
        lastStage = stage
        terminal.errorInPlace("\(label)\(stage.map { " (\($0))" } ?? ""): \(percent)% (\(done)/\(total) \(unit))")
    }

    /// Ends the line, once: a second call, without an update between, prints nothing.
    func finish() {
        if isShown, lastPercent >= 0 { terminal.error("") }
        lastPercent = -1
        lastStage = nil
    }
}
