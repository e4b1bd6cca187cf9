import Foundation
import Glibc
import HealthLogTestSupport
import Synchronization
import Testing
@testable import HealthLog

/// A restore holds the target's lock from its first look at it until the new store is in
/// place; whoever waits on the lock of a store swapped away takes the lock of the store now
/// at the path.
@Suite("Restore locks")
struct RestoreLockTests {
    /// Takes an exclusive `flock(2)` on `path` (created if missing) as another process
    /// would; returns the descriptor, whose closing releases it.
    static func hold(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT, 0o600)
        try #require(fd >= 0 && flock(fd, LOCK_EX) == 0)
        return fd
    }

    /// How many of this process's descriptors are open on the file now at `path`.
    static func openCount(_ path: String) -> Int {
        var target = stat()
        guard stat(path, &target) == 0, let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return names.count { name in
            var info = stat()
            return stat("/proc/self/fd/" + name, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino
        }
    }

    /// Options whose lock waits last `seconds`.
    static func waiting(_ seconds: Double) -> StoreOptions {
        var options = RestoreFixture.options
        options.lockTimeout = seconds
        return options
    }

    /// Polls `condition` every 10 ms on this thread for up to `seconds`; returns whether it
    /// came to hold. (On this thread, not in a task: a task's wake-up can wait behind the
    /// other tests for longer than the code under test waits for its lock.)
    static func poll(within seconds: Double = 120, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Runs `body` on a new thread; its outcome appears in the returned value.
    static func start<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> WatchedValue<Result<T, HealthLogError>?> {
        let outcome = WatchedValue<Result<T, HealthLogError>?>(nil)
        Thread {
            let result: Result<T, HealthLogError>
            do {
                result = .success(try body())
            } catch let error as HealthLogError {
                result = .failure(error)
            } catch {
                result = .failure(HealthLogError(.io, "\(error)"))
            }
            outcome.update { $0 = result }
        }.start()
        return outcome
    }

    @Test("A restore over a store whose writer lock is held reads nothing, neither the backup nor the target, and times out with the writers' lock message")
    func waitsOnWriterLock() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let held = try Self.hold(fixture.dir.file("store/lock"))
        defer { close(held) }
        let before = try RestoreFixture.tree(fixture.dir.path)
        let progressed = Mutex(false)
        let error = #expect(throws: HealthLogError.self) {
            try HealthStore(directory: fixture.dir.file("store"), options: Self.waiting(0.3)).restore(from: fixture.backup, force: true) { _ in
                progressed.withLock { $0 = true }
            }
        }
        #expect(error?.code == .locked, "\(String(describing: error))")
        #expect(error?.message.contains("another healthlog process is writing to") == true && error?.message.contains("HEALTHLOG_LOCK_TIMEOUT") == true)
        #expect(!progressed.withLock { $0 }, "the backup was copied before the lock was taken")
        #expect(try RestoreFixture.tree(fixture.dir.path) == before)
    }

    @Test("A restore, a writer or a recover into a missing directory whose creation lock is held times out with the lock message and creates nothing")
    func waitsOnEntryLock() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let lockPath = StoreEntryLock.path(for: fixture.dir.file("fresh"))
        #expect(lockPath == fixture.dir.file(".fresh.healthlog-lock"))
        let held = try Self.hold(lockPath)
        defer { close(held) }
        let error = #expect(throws: HealthLogError.self) {
            try HealthStore(directory: fixture.dir.file("fresh"), options: Self.waiting(0.3)).restore(from: fixture.backup)
        }
        #expect(error?.code == .locked && error?.message.contains("another healthlog process is writing to") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.file("fresh")))
        let writer = #expect(throws: HealthLogError.self) {
            try HealthStore(directory: fixture.dir.file("fresh"), options: Self.waiting(0.3)).append(ndjson: RestoreFixture.lines(1, from: 0))
        }
        #expect(writer?.code == .locked, "a writer creating the store waits on the same lock")
        let salvage = #expect(throws: HealthLogError.self) {
            try HealthStore(directory: fixture.dir.file("store"), options: Self.waiting(0.3)).recover(to: fixture.dir.file("fresh"))
        }
        #expect(salvage?.code == .locked, "so does a recover into it")
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.file("fresh")))
    }

    /// The fixture's store with a copy of it that went on to head 350 (`ahead`), and the
    /// lock of `store` held, as a writer of it would.
    private static func swapFixture() throws -> (fixture: RestoreFixture, held: Int32) {
        let fixture = try RestoreFixture()
        _ = try fixture.store.backup(to: fixture.dir.file("ahead"))
        _ = try HealthStore(directory: fixture.dir.file("ahead"), options: RestoreFixture.options).append(ndjson: RestoreFixture.lines(200, from: 150))
        return (fixture, try hold(fixture.dir.file("store/lock")))
    }

    /// Puts `ahead` at `store` (the old one moved to `store.old`) while whoever waits holds
    /// the old store's lock open; returns the new store's lock, held.
    private static func swap(_ fixture: RestoreFixture, releasing held: Int32) throws -> Int32 {
        #expect(poll { openCount(fixture.dir.file("store/lock")) == 2 }, "the waiter opened the store's lock")
        #expect(rename(fixture.dir.file("store"), fixture.dir.file("store.old")) == 0)
        #expect(rename(fixture.dir.file("ahead"), fixture.dir.file("store")) == 0)
        let newLock = try hold(fixture.dir.file("store/lock"))
        close(held)
        return newLock
    }

    @Test("A restore waiting on the lock of a store swapped away waits for the lock of the store now there, and numbers above it")
    func restoreRelocks() throws {
        let (fixture, held) = try Self.swapFixture()
        defer { fixture.dir.remove() }
        let store = HealthStore(directory: fixture.dir.file("store"), options: Self.waiting(600))
        let backup = fixture.backup
        let outcome = Self.start { try store.restore(from: backup, force: true) }
        let newLock = try Self.swap(fixture, releasing: held)
        let relocked = Self.poll { Self.openCount(fixture.dir.file("store/lock")) == 2 || outcome.value != nil }
        #expect(relocked && outcome.value == nil, "the restore went on holding the lock of the store swapped away: \(String(describing: outcome.value))")
        close(newLock)
        #expect(Self.poll(within: 600) { outcome.value != nil })
        let report = try #require(try outcome.value?.get())
        #expect(report.firstSeq == 351 && report.replacedStore)
        #expect(try RestoreFixture.seqs(store) == Array(1...100))
        #expect(try RestoreFixture.seqs(HealthStore(directory: fixture.dir.file("store.old"))) == Array(1...150), "the store swapped away is untouched")
        #expect(try store.verify().isSound)
    }

    @Test("An append waiting on the lock of a store swapped away appends to the store now there")
    func writerRelocks() throws {
        let (fixture, held) = try Self.swapFixture()
        defer { fixture.dir.remove() }
        let store = HealthStore(directory: fixture.dir.file("store"), options: Self.waiting(600))
        let outcome = Self.start { try store.append(ndjson: RestoreFixture.lines(1, from: 900)).anchor.seq }
        let newLock = try Self.swap(fixture, releasing: held)
        #expect(Self.poll { Self.openCount(fixture.dir.file("store/lock")) == 2 || outcome.value != nil })
        #expect(outcome.value == nil)
        close(newLock)
        #expect(Self.poll(within: 600) { outcome.value != nil })
        #expect(try outcome.value?.get() == 351)
        #expect(try RestoreFixture.seqs(HealthStore(directory: fixture.dir.file("store.old"))) == Array(1...150))
    }
}
