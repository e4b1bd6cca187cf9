import Foundation

/// Polls `condition` every `interval` for up to `seconds` (generous: CI machines are slow);
/// returns whether it became true.
///
/// Only for what nothing signals: a file another process writes (a follower's output, its
/// anchor file) or a child process's exit. Where the code under test calls back (an update
/// handler, `afterBatch`, an async sequence), wait on that with ``WatchedValue`` instead.
public func eventually(
    within seconds: Double = 60, every interval: Duration = .milliseconds(10), _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try condition()
}
