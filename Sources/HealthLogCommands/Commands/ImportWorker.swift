#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// Runs `healthlog-import`, the executable beside this one that links the import's
/// libraries (libxml2, libarchive), so that no other command pays for loading them, and
/// prints what it reports exactly as an import in this process would.
///
/// The worker gets the store and its options as arguments (``ImportWorkerRequest``), an
/// encrypted store's secret as a path, the keyring, or a passphrase on a pipe, and
/// answers on a pipe with one ``ImportWorkerMessage`` a line. A failure is thrown here as
/// the same ``HealthLogError``, so messages and exit codes are those of the import itself.
struct ImportWorker {
    /// The store to import into, with the options the environment gave.
    let store: HealthStore
    /// `--mirror`.
    let mirror: Bool
    /// The export file.
    let path: String
    /// The worker's file name, in the directory of the running executable.
    let executable: String

    /// Runs the worker to its end, printing its report and progress.
    ///
    /// - Throws: the import's ``HealthLogError``; ``HealthLogError/Code/io`` when the worker
    ///   cannot be started or ends without saying why.
    func run(_ terminal: Terminal, _ progress: ProgressLine) throws {
        let executable = try Self.workerPath(self.executable)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Self.failure("cannot create a pipe for healthlog-import", errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        // The watch pipe: the worker reads its end of file when this process ends, however
        // it ends; only this process holds the write end.
        var watch: [Int32] = [0, 0]
        guard pipe(&watch) == 0 else {
            let err = errno
            _ = close(readEnd)
            _ = close(writeEnd)
            throw Self.failure("cannot create a pipe for healthlog-import", err)
        }
        _ = fcntl(watch[1], F_SETFD, FD_CLOEXEC)
        defer { _ = close(watch[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawn_file_actions_adddup2(&actions, watch[0], 0)
        posix_spawn_file_actions_addclose(&actions, watch[0])
        // An encrypted store's passphrase, on a pipe the worker reads to its end (it fits
        // the pipe's buffer, so writing it all first cannot block).
        let secret = try store.secretForWorker()
        var passphrase: [Int32] = [-1, -1]
        if case .passphrase(let bytes) = secret {
            guard pipe(&passphrase) == 0 else { throw Self.failure("cannot create a pipe for healthlog-import", errno) }
            _ = fcntl(passphrase[1], F_SETFD, FD_CLOEXEC)
            let written = bytes.withUnsafeBytes { write(passphrase[1], $0.baseAddress, $0.count) }
            _ = close(passphrase[1])
            guard written == bytes.count else {
                _ = close(passphrase[0])
                throw Self.failure("cannot hand the passphrase to healthlog-import", errno)
            }
            posix_spawn_file_actions_adddup2(&actions, passphrase[0], ImportWorkerRequest.passphraseDescriptor)
            posix_spawn_file_actions_addclose(&actions, passphrase[0])
        }
        defer { if passphrase[0] >= 0 { _ = close(passphrase[0]) } }
        var request = ImportWorkerRequest(storePath: store.directory, exportPath: path, storeOptions: store.options, mirror: mirror, parentPipe: 0)
        request.secret = secret
        let argv = [executable] + request.arguments
        var cArgv = argv.map { strdup($0) } + [nil]
        defer { for argument in cArgv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &cArgv, environ)
        _ = close(writeEnd)
        _ = close(watch[0])
        guard spawned == 0 else {
            _ = close(readEnd)
            let hint = spawned == ENOENT ? " (it is built beside healthlog by 'swift build --product healthlog-import')" : ""
            throw Self.failure("cannot run \(executable)\(hint)", spawned)
        }
        WorkerSignals.forward(to: pid)
        defer { WorkerSignals.restore() }
        var failure: HealthLogError?
        var reporting = false
        try ImportWorkerMessage.receive(from: readEnd) { message in
            switch message {
            case .progress(let stage, let done, let total):
                progress.update(stage: stage, done, total)
            case .stderr(let text):
                if !reporting { progress.finish() }
                reporting = true
                terminal.error(text)
            case .stdout(let text):
                if !reporting { progress.finish() }
                reporting = true
                terminal.print(text)
                terminal.flush()
            case .failure(let error):
                failure = error
            }
        }
        _ = close(readEnd)
        let status = try Self.wait(pid)
        if let failure { throw failure }
        // `waitpid`'s status word (the C macros do not reach Swift): the low 7 bits are the
        // signal that ended the worker, 0 when it exited. A worker killed by a signal (the
        // kernel's out-of-memory killer, a `kill -9`, a fault plan's kill) ends this process
        // with the same signal, after saying so: the worker could not.
        let signalNumber = status & 0x7F
        if signalNumber != 0, signalNumber != 0x7F {
            if !reporting { progress.finish() }
            let name = strsignal(signalNumber).map { String(cString: $0) } ?? "signal"
            terminal.failure("\(self.executable) was killed by signal \(signalNumber) (\(name)); importing again completes the import")
            signal(signalNumber, SIG_DFL)
            kill(getpid(), signalNumber)
        }
        guard signalNumber == 0, (status >> 8) & 0xFF == 0 else {
            throw HealthLogError(.io, "\(executable) ended with status \(status) without a report")
        }
    }

    /// The worker `name` in the directory of the running executable (`/proc/self/exe`).
    private static func workerPath(_ name: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let me = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let directory = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? "."
        return directory + "/" + name
    }

    /// Waits for the worker with `waitpid(2)`; returns its status.
    private static func wait(_ pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw failure("cannot wait for healthlog-import", errno) }
        }
        return status
    }

    /// An I/O error with the system's reason.
    private static func failure(_ what: String, _ code: Int32) -> HealthLogError {
        HealthLogError(.io, "\(what): \(strerror(code).map { String(cString: $0) } ?? "errno \(code)")", errno: code)
    }
}
