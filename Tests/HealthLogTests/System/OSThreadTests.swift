import CThreadPlacement
import Dispatch
import Foundation
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

    /// The processors the calling thread may run on, as Linux lists them.
    static func allowedProcessors() throws -> String {
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    }

    @Test("A started thread, begun on another processor than its starter's or not, may then run on every one its starter may")
    func startedThreadMayRunAnywhere() throws {
        let caller = try Self.allowedProcessors()
        for besideCaller in [true, false] {
            let seen = Box()
            var list = ""
            let thread = try #require(OSThread.start(besideCaller: besideCaller) {
                list = (try? Self.allowedProcessors()) ?? ""
                seen.value = 1
            })
            thread.join()
            #expect(seen.value == 1)
            #expect(list == caller, "beside the caller: \(besideCaller)")
        }
    }

    @Test("A starter bound to one processor still starts a thread, bound as it is")
    func starterOnOneProcessor() throws {
        let caller = try Self.allowedProcessors()
        let first = try #require(Int(caller.prefix { $0.isNumber }))
        try #require(first < 64)
        var all = healthlog_processors()
        for range in caller.split(separator: ",") {
            let ends = range.split(separator: "-").compactMap { Int($0) }
            for cpu in ends[0]...(ends.last ?? ends[0]) where cpu < 1024 { setBit(&all, cpu) }
        }
        var one = healthlog_processors()
        setBit(&one, first)
        healthlog_allow_processors(&one)
        defer { healthlog_allow_processors(&all) }
        #expect(try Self.allowedProcessors() == "\(first)")
        var list = ""
        let thread = try OSThread.start(for: "a test") { list = (try? Self.allowedProcessors()) ?? "" }
        thread.join()
        #expect(list == "\(first)")
    }

    /// Adds processor `cpu` to `set`.
    private func setBit(_ set: inout healthlog_processors, _ cpu: Int) {
        withUnsafeMutableBytes(of: &set.bits) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            words[cpu / 64] |= 1 << UInt64(cpu % 64)
        }
    }
}
