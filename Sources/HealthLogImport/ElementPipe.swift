#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The bounded queue between the thread that parses an export document
/// (``ExportScanner``) and the one that maps its elements, so parsing and mapping use two
/// cores. The scanner pushes batches of top-level elements in document order and then the
/// end of the document (what it found, or why it stopped); the mapper pops them in the same
/// order. At most ``capacity`` batches wait, so memory holds a few hundred elements however
/// far the parser runs ahead.
final class ElementPipe: @unchecked Sendable {
    // Sendable by hand: every stored property other than the two pthread objects (made once
    // in `init`, freed in `deinit`) is read and written only with `mutex` locked.

    /// What the scanner found in the whole document.
    struct Summary: Sendable {
        /// The document read: the file, or the zip and its entry.
        var name: String
        /// Whether the input is a zip.
        var isZip: Bool
        /// Every element by name, at every depth.
        var elementCounts: [String: Int]
        /// The export's `locale`.
        var locale: String?
    }

    /// One thing popped.
    enum Item {
        /// Top-level elements in document order, and the input's bytes consumed after them
        /// out of its total.
        case elements([ExportElement], bytesConsumed: Int, totalBytes: Int)
        /// The document's end: its summary, or the error that stopped the scanner.
        case end(Result<Summary, any Error>)
    }

    /// The most batches that wait.
    static let capacity = 8

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var items: [Item] = []
    /// Whether the end was pushed.
    private var ended = false
    /// Whether the mapper stopped taking batches: pushes fail from then on.
    private var cancelled = false

    /// An empty pipe.
    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Runs `body` with the mutex locked.
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Adds a batch, waiting while ``capacity`` batches wait; `false` when the mapper has
    /// stopped (the scanner should stop too).
    func push(_ elements: [ExportElement], bytesConsumed: Int, totalBytes: Int) -> Bool {
        locked {
            while items.count >= Self.capacity, !cancelled { pthread_cond_wait(changed, mutex) }
            guard !cancelled else { return false }
            items.append(.elements(elements, bytesConsumed: bytesConsumed, totalBytes: totalBytes))
            pthread_cond_broadcast(changed)
            return true
        }
    }

    /// Adds the end of the document: the last push.
    func end(_ result: Result<Summary, any Error>) {
        locked {
            items.append(.end(result))
            ended = true
            pthread_cond_broadcast(changed)
        }
    }

    /// The next item, waiting for the scanner when there is none.
    func pop() -> Item {
        locked {
            while items.isEmpty { pthread_cond_wait(changed, mutex) }
            let item = items.removeFirst()
            pthread_cond_broadcast(changed)
            return item
        }
    }

    /// Stops the scanner: its waiting and later pushes return `false`.
    func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(changed)
        }
    }
}

/// A thread that runs one job and is joined, for the scanner's side of an ``ElementPipe``.
struct JoinableThread {
    /// The job, handed to the thread.
    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread (`pthread_create`).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when no thread can be made.
    init(_ body: @escaping @Sendable () -> Void) throws {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        #if canImport(Glibc)
        var made = pthread_t()
        #else
        var made: pthread_t?
        #endif
        let result = pthread_create(&made, nil, { raw in
            #if canImport(Glibc)
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            #else
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #endif
            job.body()
            return nil
        }, context)
        #if canImport(Glibc)
        let started: pthread_t? = result == 0 ? made : nil
        #else
        let started: pthread_t? = result == 0 ? made : nil
        #endif
        guard let started else {
            Unmanaged<Job>.fromOpaque(context).release()
            throw HealthLogError(.io, "cannot start the import's parsing thread: \(String(cString: strerror(result)))", errno: result)
        }
        thread = started
    }

    /// Waits for the job to end (`pthread_join`).
    func join() {
        pthread_join(thread, nil)
    }
}
