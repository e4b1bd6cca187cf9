/// The encoding of an append's run of the fingerprint UUID index
/// (``UUIDFingerprintRun/Events/fileBytes(from:to:binding:cipher:)``) on a thread of its own,
/// started before the commit's syncs so the two overlap; ``write(into:binding:)`` waits for
/// it, binds the run to the log the commit left and writes the file. Nothing is written
/// before that, so a job given up leaves no file.
final class FingerprintRunJob {
    /// Where the thread leaves the run's bytes (read only after the thread is joined,
    /// which orders the two accesses).
    private final class Box {
        /// Set by the thread before it ends.
        var bytes: Result<[UInt8], any Error>?
    }

    /// The run's range.
    let from: UInt64
    let to: UInt64
    /// What sealed the run's body (`nil`: a plaintext store's run).
    private let cipher: StoreCipher?
    /// The bytes, shared with the thread.
    private let box = Box()
    /// The thread, until joined; `nil` when none could be started (the bytes were then
    /// encoded on the caller's thread) or once joined.
    private var thread: OSThread?

    /// Starts encoding the run of `events` covering `from...to`, its body sealed with
    /// `cipher` (the store's; `nil` for a plaintext store).
    init(_ events: UUIDFingerprintRun.Events, from: UInt64, to: UInt64, cipher: StoreCipher?) {
        self.from = from
        self.to = to
        self.cipher = cipher
        let box = box
        let work = { box.bytes = Result { try events.fileBytes(from: from, to: to, binding: .unbound, cipher: cipher) } }
        thread = OSThread.start(work)
        if thread == nil { work() }
    }

    /// Waits for the encoding if it still runs, so the thread never outlives the job.
    deinit { join() }

    /// Waits for the thread, once.
    private func join() {
        thread?.join()
        thread = nil
    }

    /// Waits for the encoding and writes the run, bound to `binding` (the log's at ``to``),
    /// into `directory` (created 0700 if absent; temporary file and rename, not synced:
    /// derived data); returns it.
    func write(into directory: String, binding: LogBinding) throws -> UUIDFingerprintRun {
        join()
        guard let outcome = box.bytes else { throw HealthLogError(.io, "the encoding of a UUID run ended without its bytes") }
        // Taken out of the box, so binding the bytes changes them in place, not a copy.
        box.bytes = nil
        var bytes = try outcome.get()
        UUIDFingerprintRun.rebind(&bytes, to: binding)
        try OwnedDirectory.prepare(directory)
        let path = directory + "/" + UUIDFingerprintRun.fileName(from: from, to: to)
        try DurableFile.replace(path, with: bytes, sync: false)
        return try UUIDFingerprintRun.open(path, cipher: cipher)
    }
}
