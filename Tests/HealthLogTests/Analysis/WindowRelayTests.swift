#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
@testable import HealthLog

/// The two buffers the statistics scan's threads pass back and forth.
@Suite("Window relay")
struct WindowRelayTests {
    @Test("Windows reach the consumer in order, each buffer reused two windows later")
    func inOrder() throws {
        let relay = WindowRelay { [Int]() }
        let producer = try #require(OSThread.start {
            for k in 0..<50 {
                guard relay.produce(k, { $0.append(k) }) else { return }
            }
        })
        var seen: [[Int]] = []
        for k in 0..<50 { seen.append(relay.consume(k) { $0 }) }
        relay.stop()
        producer.join()
        #expect(seen == (0..<50).map { k in Array(stride(from: k & 1, through: k, by: 2)) })
    }

    @Test("The consumer learns whether the window it asked for was still being filled")
    func consumerWaited() throws {
        let relay = WindowRelay { -1 }
        let first = DispatchSemaphore(value: 0)
        let asking = DispatchSemaphore(value: 0)
        let producer = try #require(OSThread.start {
            guard relay.produce(0, { $0 = 0 }) else { return }
            first.signal()
            // Window 1 comes well after the consumer is about to ask for it.
            asking.wait()
            usleep(100_000)
            _ = relay.produce(1) { $0 = 1 }
        })
        first.wait()
        #expect(relay.consume(0) { $0 } == 0)
        #expect(!relay.consumerWaited)
        asking.signal()
        #expect(relay.consume(1) { $0 } == 1)
        #expect(relay.consumerWaited)
        relay.stop()
        producer.join()
    }

    @Test("A consumer that stops while the producer waits two windows ahead ends it, and the relay goes away cleanly")
    func stopAhead() throws {
        // Its semaphores go away with it at the end of the test: one left below the value
        // it was created with would trap the process.
        let shared = WindowRelay { -1 }
        let producer = try #require(OSThread.start {
            for k in 0..<10 {
                guard shared.produce(k, { $0 = k }) else { return }
            }
        })
        #expect(shared.consume(0) { $0 } == 0)
        #expect(shared.consume(1) { $0 } == 1)
        // Windows 2 and 3 fill the buffers again; the producer then waits for window 4's.
        usleep(50_000)
        shared.stop()
        producer.join()
        #expect(shared.isStopped)
    }
}
