import Dispatch
import Foundation
import Testing
@testable import HealthLog

/// ``OrderedJobs``: results in submission order, on threads of the queue's own that give
/// way to the caller's and do not wait behind a busy Dispatch pool (what an append's
/// batch encoding relies on).
@Suite("Ordered jobs")
struct OrderedJobsTests {
    @Test("Results come back in the order the jobs were submitted, however long each took")
    func submissionOrder() {
        let jobs = OrderedJobs<Int>()
        for k in 0..<16 {
            jobs.submit {
                usleep(UInt32((16 - k) * 500))
                return k
            }
        }
        var results: [Int] = []
        while let result = jobs.next() { results.append(result) }
        #expect(results == Array(0..<16))
        #expect(jobs.pending == 0)
    }

    /// What a job captures, to see who still holds it.
    final class Captured: Sendable {}

    @Test("Once a result is taken, neither the job nor the queue holds what the job captured, so a consumer given the only copy of a value can reuse its buffers")
    func jobLetGoBeforeItsResult() {
        let jobs = OrderedJobs<Int>()
        var released = 0
        for round in 0..<2_000 {
            var captured: Captured? = Captured()
            weak let watched = captured
            jobs.submit { [captured] in withExtendedLifetime(captured) { round } }
            captured = nil
            #expect(jobs.next() == round)
            if watched == nil { released += 1 }
        }
        #expect(released == 2_000, "held by a job that already ran in \(2_000 - released) of 2,000 rounds")
    }

    @Test("A job runs before a Dispatch job queued earlier, while every thread of Dispatch's default pool is taken")
    func doesNotWaitBehindDispatch() {
        // One blocked job a core takes the default pool, and one more waits in its queue
        // before the marker: a thread libdispatch adds to a pool whose threads all block
        // (about once a second) takes that one, not the marker. All are released as soon
        // as the queue's job ran, or at the timeout, so other tests wait briefly. On
        // Dispatch's pool the job would queue behind the marker and run after it.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let gate = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        for _ in 0...cores {
            DispatchQueue.global().async {
                blocked.signal()
                gate.wait()
            }
        }
        let taken = (0..<cores).filter { _ in blocked.wait(timeout: .now() + 10) == .success }.count
        let order = Order()
        let markerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            order.append("default")
            markerDone.signal()
        }
        let jobs = OrderedJobs<[String]>(qos: .userInitiated)
        let ran = DispatchSemaphore(value: 0)
        jobs.submit {
            let before = order.names
            ran.signal()
            return before
        }
        let ranInTime = ran.wait(timeout: .now() + 10) == .success
        for _ in 0...cores { gate.signal() }
        #expect(taken == cores, "a blocking job a core started")
        #expect(ranInTime, "the queue's job ran while the default pool was taken")
        #expect(jobs.next() == [], "no default job ran before it")
        #expect(markerDone.wait(timeout: .now() + 10) == .success)
    }

    /// The names jobs append as they run, from any thread.
    private final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ name: String) { lock.withLock { list.append(name) } }
        var names: [String] { lock.withLock { list } }
    }

    @Test("Jobs run on threads that give way to the caller's: a raised nice value, larger for default work than user-initiated")
    func threadsGiveWay() {
        errno = 0
        let caller = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        for (qos, raise) in [(DispatchQoS.QoSClass.default, Int32(8)), (.userInitiated, 4)] {
            let jobs = OrderedJobs<Int32>(qos: qos)
            jobs.submit { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            #expect(jobs.next() == min(19, caller + raise))
        }
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == caller)
    }

    @Test("A queue let go with jobs not taken ends its threads once the running jobs finish")
    func letGoWithJobsPending() {
        let finished = Counter()
        for _ in 0..<50 {
            let jobs = OrderedJobs<Int>()
            for k in 0..<8 {
                jobs.submit {
                    usleep(200)
                    finished.add()
                    return k
                }
            }
            #expect(jobs.next() == 0)
        }
        // Every queue was joined before the loop went on: no job runs after it.
        let settled = finished.value
        usleep(20_000)
        #expect(finished.value == settled)
    }

    /// A count jobs add to from any thread.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
