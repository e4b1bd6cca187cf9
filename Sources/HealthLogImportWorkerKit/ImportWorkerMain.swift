#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog
import HealthLogImport

/// The body of `healthlog-import`, the worker `healthlog import` runs so that only an
/// import loads libxml2 and libarchive. It is started by `healthlog`, never by hand:
/// `healthlog` has already checked the command line and the environment, and passes what
/// they say as ``ImportWorkerRequest`` arguments. Everything the import prints, and its
/// failure, goes back to `healthlog` as ``ImportWorkerMessage``s on standard output.
package enum ImportWorkerMain {
    /// Runs the import `arguments` ask for and exits: 0 when it succeeded, 1 when it failed
    /// (the failure sent as a message). Only the test-only twin passes `acceptsFaults`; the
    /// shipping worker refuses a fault plan.
    package static func run(_ arguments: [String], acceptsFaults: Bool) -> Never {
        let channel = WorkerChannel(fd: 1)
        do {
            let request = try ImportWorkerRequest(arguments: arguments, acceptsFaults: acceptsFaults)
            ParentWatch.handleSignals()
            if let fd = request.parentPipe { ParentWatch.watch(fd) }
            var lastStep: (phase: ImportProgress.Phase, megabytes: Int)?
            let store = HealthStore(directory: request.storePath, secret: request.secret, ask: nil, options: request.storeOptions)
            var options = ImportOptions()
            options.mirror = request.mirror
            let report = try store.importExport(at: request.exportPath, options: options) { step in
                let megabytes = step.bytesDone >> 20
                guard lastStep?.phase != step.phase || lastStep?.megabytes != megabytes else { return }
                lastStep = (step.phase, megabytes)
                channel.send(.progress(stage: step.phase.rawValue, done: megabytes, total: max(1, step.bytesTotal >> 20)))
            }
            for message in report.messages { channel.send(message) }
            exit(0)
        } catch let error as HealthLogError {
            channel.send(.failure(error))
            exit(1)
        } catch {
            channel.send(.failure(HealthLogError(.io, "\(error)")))
            exit(1)
        }
    }
}
