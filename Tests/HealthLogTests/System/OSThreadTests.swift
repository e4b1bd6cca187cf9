import Dispatch
import Glibc
import Testing
@testable import HealthLog

/// The one-job threads healthlog starts (``OSThread``): joined, run beside the caller's
/// job, or detached.
@Suite("Threads")
struct OSThreadTests {
    /// A value a thread sets and its starter reads once the thread is joined.
    final class Box: @unchecked Sendable {
        var value = 0
    }

    @Test("A started thread runs its job, and join waits for it")
    func startAndJoin() throws {
        let box = Box()
        let thread = try OSThread.start(for: "a test") {
            for k in 1...1_000 { box.value += k }
        }
        thread.join()
        #expect(box.value == 500_500)
    }

    @Test("run(_:alongside:) returns once both jobs ran, on two threads")
    func alongside() {
        var background: pthread_t?
        var foreground: pthread_t?
        OSThread.run({ background = pthread_self() }, alongside: { foreground = pthread_self() })
        #expect(background != nil && foreground != nil)
        #expect(pthread_equal(background!, foreground!) == 0)
    }

    @Test("A detached thread runs its job")
    func detached() {
        let done = DispatchSemaphore(value: 0)
        OSThread.detach { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
    }

    @Test("A thread that defers to the others raises its own nice value, not the process's other threads'")
    func defersToOthers() throws {
        errno = 0
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let box = Box()
        let thread = try OSThread.start(for: "a test") {
            OSThread.deferToOtherThreads(by: 5)
            box.value = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        thread.join()
        #expect(box.value == Int(min(19, before + 5)))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }
}
