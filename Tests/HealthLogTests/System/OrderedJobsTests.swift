import Dispatch
import Foundation
import Testing
@testable import HealthLog

/// ``OrderedJobs``: results in submission order, and jobs of a higher class that do not
/// wait behind a busy default pool (what an append's batch encoding relies on).
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

    @Test("A user-initiated job runs before a default job queued earlier, while every thread of the default pool is taken")
    func higherClassDoesNotWaitBehindDefault() {
        let gate = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 4
        for _ in 0..<blockers { DispatchQueue.global().async { gate.wait() } }
        let order = Order()
        let markerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            order.append("default")
            markerDone.signal()
        }
        let jobs = OrderedJobs<Bool>(qos: .userInitiated)
        jobs.submit {
            order.append("user-initiated")
            for _ in 0..<blockers { gate.signal() }
            return true
        }
        #expect(jobs.next() == true)
        markerDone.wait()
        #expect(order.names == ["user-initiated", "default"])
    }

    /// The names jobs append as they run, from any thread.
    private final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ name: String) { lock.withLock { list.append(name) } }
        var names: [String] { lock.withLock { list } }
    }
}
