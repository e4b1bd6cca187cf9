/// The encoding of an append's run of the fingerprint UUID index on a thread of its own,
/// started before the commit's syncs so the two overlap: the run is streamed
/// (``UUIDFingerprintRun/Events/write(from:to:binding:cipher:into:)``) into an unlinked
/// scratch file (``ScratchFiles``), unbound; ``write(into:binding:)`` waits for it, and
/// copies it into the store's directory a piece at a time, bound to the log the commit
/// left. Nothing is written into the store before that, so a job given up leaves no file,
/// and memory holds a piece of the run, never the run.
final class FingerprintRunJob {
    /// Where the thread leaves the scratch file holding the run (read only after the
    /// thread is joined, which orders the two accesses).
    private final class Box {
        /// Set by the thread before it ends.
        var file: Result<FileDescriptor, any Error>?
    }

    /// The run's range.
    let from: UInt64
    let to: UInt64
    /// What sealed the run's body (`nil`: a plaintext store's run).
    private let cipher: StoreCipher?
    /// The scratch file, shared with the thread.
    private let box = Box()
    /// The thread, until joined; `nil` when none could be started (the run was then
    /// encoded on the caller's thread) or once joined.
    private var thread: OSThread?
    /// Bytes copied at a time.
    private static let copyBytes = 1 << 20

    /// Starts encoding the run of `events` covering `from...to`, its body sealed with
    /// `cipher` (the store's; `nil` for a plaintext store).
    init(_ events: UUIDFingerprintRun.Events, from: UInt64, to: UInt64, cipher: StoreCipher?) {
        self.from = from
        self.to = to
        self.cipher = cipher
        let box = box
        let work = {
            box.file = Result {
                let file = try ScratchFiles.makeUnlinkedFile(prefix: "healthlog-run-")
                do {
                    try events.write(from: from, to: to, binding: .unbound, cipher: cipher, into: file)
                } catch {
                    file.close()
                    throw error
                }
                return file
            }
        }
        thread = OSThread.start(work)
        if thread == nil { work() }
    }

    /// Waits for the encoding if it still runs, so the thread never outlives the job, and
    /// closes the scratch file (which is gone once closed).
    deinit {
        join()
        if case .success(let file) = box.file { file.close() }
    }

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
        guard let outcome = box.file else { throw HealthLogError(.io, "the encoding of a UUID run ended without its file") }
        let scratch = try outcome.get()
        try OwnedDirectory.prepare(directory)
        let path = directory + "/" + UUIDFingerprintRun.fileName(from: from, to: to)
        try DurableFile.replace(path, sync: false) { fd in
            let size = try scratch.size()
            var header = try scratch.read(at: 0, count: UUIDFingerprintRun.headerLength)
            guard header.count == UUIDFingerprintRun.headerLength else { throw HealthLogError(.io, "\(scratch.path): the encoded UUID run ends early") }
            UUIDFingerprintRun.rebind(&header, to: binding)
            try fd.write(header, at: 0)
            var piece = [UInt8](repeating: 0, count: Self.copyBytes)
            var at = header.count
            while at < size {
                if size - at < piece.count { piece = [UInt8](repeating: 0, count: size - at) }
                guard try scratch.read(into: &piece, at: at) == piece.count else { throw HealthLogError(.io, "\(scratch.path): the encoded UUID run ends early") }
                try fd.write(piece, at: at)
                at += piece.count
            }
        }
        return try UUIDFingerprintRun.open(path, cipher: cipher)
    }
}
