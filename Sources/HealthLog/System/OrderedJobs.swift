#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Runs jobs on background threads of its own (as many at once as there are cores,
/// started as jobs wait for one) and hands their results back in the order the jobs were
/// submitted: the caller submits a few jobs ahead, then takes the oldest result, blocking
/// until it is ready. How far ahead it submits bounds what is in flight, and so the memory
/// held.
///
/// Used where the work of a sequential pass splits: an append's lines are parsed in
/// chunks on both cores while the writer consumes the chunks before them in input order.
/// The threads give way to the caller's (a raised nice value on Linux, larger for
/// `.default` work than for `.userInitiated`): the caller's pass is serial and sets the
/// pace, and a job it wakes would otherwise take its core from it (with Dispatch's pool,
/// the writer of a 1M-event append ran two thirds of the time, and the append took about
/// 10% longer). The threads are the queue's own, not a pool shared with the rest of the
/// process, so lowering their share touches no one else's work; they end with the queue.
final class OrderedJobs<Result: Sendable> {
    /// One job and its result, written once by the job and taken once by the consumer.
    ///
    /// `@unchecked Sendable`: ``job`` is set before the slot is queued and let go by the
    /// thread that runs it; ``result`` and ``isDone`` are written by that thread and read
    /// by the consumer with the workers' mutex ordering the accesses.
    private final class Slot: @unchecked Sendable {
        /// The job, until it runs.
        var job: (@Sendable () -> Result)?
        /// The job's result, once it has run, until it is taken.
        var result: Result?
        /// Whether the job has run.
        var isDone = false
    }

    /// The queue's threads and the jobs waiting for one.
    ///
    /// `@unchecked Sendable`: every field but ``room`` is read and written with `room`
    /// locked.
    private final class Workers: @unchecked Sendable {
        /// The lock, and the conditions: ``queued`` wakes one idle thread when a job is
        /// queued, ``ran`` the consumer waiting for a job that has run.
        let room = WaitRoom()
        let queued = WaitRoom.Condition.first
        let ran = WaitRoom.Condition.second
        /// The jobs waiting for a thread, oldest first.
        var waiting: [Slot] = []
        /// Threads waiting for a job.
        var idle = 0
        /// Threads started.
        var started = 0
        /// Whether the queue is going away: idle threads end, waiting jobs are dropped.
        var stopping = false
        /// How far each thread raises its nice value.
        let niceness: Int32

        init(niceness: Int32) {
            self.niceness = niceness
        }

        /// A thread's loop: runs the jobs waiting, oldest first, until the queue stops.
        func work() {
            OSThread.deferToOtherThreads(by: niceness)
            while let slot = nextJob() {
                let result = OrderedJobs.run(slot)
                room.locked {
                    slot.result = result
                    slot.isDone = true
                    room.broadcast(ran)
                }
            }
        }

        /// The oldest job waiting, waiting for one; `nil` once the queue stops.
        private func nextJob() -> Slot? {
            room.locked {
                while waiting.isEmpty, !stopping {
                    idle += 1
                    room.wait(queued)
                    idle -= 1
                }
                return waiting.isEmpty ? nil : waiting.removeFirst()
            }
        }
    }

    /// Jobs submitted and not yet taken, oldest first (a few: the caller bounds them).
    private var slots: [Slot] = []
    private let workers: Workers
    private var threads: [OSThread] = []
    /// The most threads: one a core.
    private static var mostThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// An empty queue of jobs of class `qos`: `.userInitiated` work (encoding what the
    /// caller waits for next) gives way less than `.default` work (parsing ahead).
    init(qos: DispatchQoS.QoSClass = .default) {
        workers = Workers(niceness: qos == .userInitiated ? 4 : 8)
    }

    deinit {
        workers.room.locked {
            workers.stopping = true
            workers.waiting.removeAll()
            workers.room.broadcast(workers.queued)
        }
        for thread in threads { thread.join() }
    }

    /// How many submitted jobs have not been taken yet.
    var pending: Int { slots.count }

    /// Starts `job` on a background thread.
    func submit(_ job: @escaping @Sendable () -> Result) {
        let slot = Slot()
        slot.job = job
        slots.append(slot)
        let workers = workers
        let startsThread = workers.room.locked {
            workers.waiting.append(slot)
            workers.room.signal(workers.queued)
            guard workers.idle == 0, workers.started < Self.mostThreads else { return false }
            workers.started += 1
            return true
        }
        guard startsThread else { return }
        if let thread = OSThread.start({ workers.work() }) {
            threads.append(thread)
            return
        }
        // No thread could be started: the job runs here when no thread will take it.
        let runsHere = workers.room.locked {
            workers.started -= 1
            guard workers.started == 0, let index = workers.waiting.firstIndex(where: { $0 === slot }) else { return false }
            workers.waiting.remove(at: index)
            return true
        }
        if runsHere {
            slot.result = Self.run(slot)
            slot.isDone = true
        }
    }

    /// Runs the job of `slot`, letting it go first: once the consumer is signalled, what
    /// the job captured is held by its result alone, so a consumer given the only copy of a
    /// value (a batch builder it empties and fills again) does not find it shared with a
    /// job the thread has not released yet, and copy its buffers.
    private static func run(_ slot: Slot) -> Result {
        let job = slot.job!
        slot.job = nil
        return job()
    }

    /// The result of the oldest job not taken yet, waiting for it to finish; `nil` when
    /// every job was taken. The slot keeps no copy of it.
    func next() -> Result? {
        guard !slots.isEmpty else { return nil }
        let slot = slots.removeFirst()
        let workers = workers
        return workers.room.locked {
            while !slot.isDone { workers.room.wait(workers.ran) }
            defer { slot.result = nil }
            return slot.result
        }
    }
}
