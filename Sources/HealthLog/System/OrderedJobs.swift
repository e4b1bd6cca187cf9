import Dispatch

/// Runs jobs on background threads (Dispatch's global pool, so as many at once as there
/// are cores) and hands their results back in the order the jobs were submitted: the
/// caller submits a few jobs ahead, then takes the oldest result, blocking until it is
/// ready. How far ahead it submits bounds what is in flight, and so the memory held.
///
/// Used where the work of a sequential pass splits: an append's lines are parsed in
/// chunks on both cores while the writer consumes the chunks before them in input order.
final class OrderedJobs<Result: Sendable> {
    /// One job and its result, written once by the job and taken once by the consumer.
    ///
    /// `@unchecked Sendable`: ``job`` is set before the job is queued and let go by the job
    /// as it runs; ``result`` is written by the job before it signals ``done`` and taken by
    /// the consumer only after waiting on ``done``; the queue and the semaphore order the
    /// accesses, so they never race.
    private final class Slot: @unchecked Sendable {
        /// The job, until it runs.
        var job: (@Sendable () -> Result)?
        /// The job's result, once it has run, until it is taken.
        var result: Result?
        /// Signalled when ``result`` is set.
        let done = DispatchSemaphore(value: 0)
    }

    /// Jobs submitted and not yet taken, oldest first (a few: the caller bounds them).
    private var slots: [Slot] = []

    /// The pool the jobs run on.
    private let queue: DispatchQueue

    /// An empty queue of jobs, run on Dispatch's pool for `qos`: a job of a higher class
    /// does not wait behind the jobs queued, or every thread busy, in a lower one.
    init(qos: DispatchQoS.QoSClass = .default) {
        queue = DispatchQueue.global(qos: qos)
    }

    /// How many submitted jobs have not been taken yet.
    var pending: Int { slots.count }

    /// Starts `job` on a background thread.
    func submit(_ job: @escaping @Sendable () -> Result) {
        let slot = Slot()
        slot.job = job
        slots.append(slot)
        queue.async {
            slot.result = Self.run(slot)
            slot.done.signal()
        }
    }

    /// Runs the job of `slot`, letting it go first: once the consumer is signalled, what
    /// the job captured is held by its result alone, so a consumer given the only copy of a
    /// value (a batch builder it empties and fills again) does not find it shared with a
    /// job the pool has not released yet, and copy its buffers.
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
        slot.done.wait()
        defer { slot.result = nil }
        return slot.result
    }
}
