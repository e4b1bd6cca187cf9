#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until the log may have grown. Every append ends by replacing the store's
/// `checkpoint` file (a rename into the store directory), so on Linux an inotify watch
/// on the directory wakes the waiter at once; it also wakes every
/// ``LogWatcher/safetyInterval`` in case an event was missed (a writer killed before
/// its checkpoint, a file system without inotify). A store directory that does not exist
/// yet is waited for by watching its parent for its creation. Elsewhere, or when inotify
/// is not available, it polls every ``LogWatcher/pollInterval``.
final class LogWatcher {
    /// How often to look when there is no inotify, in milliseconds.
    static let pollInterval: Int32 = 100
    /// How often to look anyway when inotify is used, in milliseconds.
    static let safetyInterval: Int32 = 1000

    private let notify: Int32
    private let directory: String
    /// Whether the store directory itself is watched (else, while it does not exist, its
    /// parent is).
    private(set) var watchesStore = false
    /// The watch on the parent directory while the store directory does not exist.
    private(set) var parentWatch: Int32 = -1

    /// Starts watching the store at `layout` (before the caller's first look, so nothing
    /// appended after that look goes unnoticed).
    init(_ layout: StoreLayout) {
        directory = layout.directory
        #if os(Linux)
        var fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd >= 0 {
            if inotify_add_watch(fd, directory, Self.storeEvents) >= 0 {
                watchesStore = true
            } else if errno == ENOENT {
                parentWatch = inotify_add_watch(fd, Self.parent(of: directory), UInt32(IN_CREATE | IN_MOVED_TO))
            }
            if !watchesStore, parentWatch < 0 {
                close(fd)
                fd = -1
            }
        }
        notify = fd
        #else
        notify = -1
        #endif
    }

    #if os(Linux)
    private static let storeEvents = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE)
    #endif

    /// The directory holding `path` (`.` for a bare name).
    private static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    deinit {
        if notify >= 0 { close(notify) }
    }

    /// Whether changes are noticed by inotify rather than by polling.
    var isNotified: Bool { notify >= 0 }

    /// Blocks until the store directory changes, `stop` is signalled, or the interval
    /// passes.
    func wait(stop: StopSignal) {
        #if os(Linux)
        if notify >= 0, !watchesStore {
            if inotify_add_watch(notify, directory, Self.storeEvents) >= 0 {
                watchesStore = true
                inotify_rm_watch(notify, parentWatch)
                parentWatch = -1
                drain()
                return
            }
        }
        #endif
        var entries = [pollfd(fd: stop.pollDescriptor, events: Int16(POLLIN), revents: 0)]
        if notify >= 0 { entries.append(pollfd(fd: notify, events: Int16(POLLIN), revents: 0)) }
        let timeout = notify >= 0 ? LogWatcher.safetyInterval : LogWatcher.pollInterval
        _ = poll(&entries, nfds_t(entries.count), timeout)
        drain()
    }

    /// Reads away the pending inotify events: one look at the log covers them all.
    private func drain() {
        guard notify >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(notify, &buffer, buffer.count) > 0 {}
    }
}
