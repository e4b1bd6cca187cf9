import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The `healthlog-mirror` program: parse, open the store and the mirror, sync, report.
enum MirrorCommand {
    /// Runs the program with `arguments` (without the program name); returns the exit code:
    /// 0 success, 1 store, database or I/O failure, 2 bad usage, 3 anchor refused.
    static func main(_ arguments: [String], environment: [String: String]) async -> Int32 {
        do {
            let options = try MirrorOptions(arguments, environment: environment)
            if options.wantsHelp {
                Console.send(MirrorOptions.help, to: 1)
                return 0
            }
            try await run(options, crashHook: try CrashHook(environment: environment["HEALTHLOG_MIRROR_TEST_CRASH"]))
            return 0
        } catch let error as HealthLogError {
            Console.report("healthlog-mirror: error: \(error.message)")
            switch error.code.category {
            case .input:
                Console.report("Usage: \(MirrorOptions.usage)")
                Console.report("See 'healthlog-mirror --help'.")
                return 2
            case .anchor: return 3
            case .store: return 1
            case .key: return 4
            }
        } catch {
            Console.report("healthlog-mirror: error: \(error)")
            return 1
        }
    }

    private static func run(_ options: MirrorOptions, crashHook: CrashHook) async throws {
        let store = HealthStore(directory: options.store)
        guard store.exists else { throw HealthLogError(.noStore, "no store at \(options.store)") }
        let types = Set(try options.types.map(store.sampleType(named:)))
        let mirror = try MirrorDatabase(path: options.database, types: types.map(\.identifier), crashHook: crashHook)
        let sync = MirrorSync(store: store, mirror: mirror, types: types, batchSize: options.batchSize) {
            Console.report("healthlog-mirror: \($0)")
        }
        guard options.follows else {
            let anchor = try await sync.catchUp()
            Console.report("healthlog-mirror: \(options.database) holds \(try mirror.sampleCount()) samples, current to anchor \(anchor.token)")
            return
        }
        // SIGINT and SIGTERM cancel the sync task: the transaction in hand completes
        // (cancellation never interrupts it), then the sync returns between two results.
        let work = Task {
            let anchor = try await sync.catchUp()
            try await sync.follow(after: anchor)
        }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { work.cancel() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        try await work.value
    }
}
