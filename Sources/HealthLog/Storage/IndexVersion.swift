#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The layout version an index file declares in the u16 after its four-byte tag (every
/// index begins `tag, u16 version, u16 0`), read before anything else of it is trusted:
/// an index of another version is derived data in a layout this build does not write, so
/// readers ignore it and writers rebuild it, and `verify` notes it rather than calling it
/// damage.
enum IndexVersion: Equatable {
    /// The file declares the version this build writes.
    case current
    /// The file declares another version, older or newer.
    case other(UInt16)
    /// The file is missing, too short or does not start with the tag.
    case unrecognised

    /// What the first six bytes of `bytes` declare, for files tagged `tag` whose current
    /// version is `current`.
    init(_ bytes: some Collection<UInt8>, tag: [UInt8], current: UInt16) {
        let head = Array(bytes.prefix(6))
        guard head.count == 6, Array(head[0..<4]) == tag else {
            self = .unrecognised
            return
        }
        let version = UInt16(head[4]) | UInt16(head[5]) << 8
        self = version == current ? .current : .other(version)
    }

    /// What the file at `path` declares (`pread(2)` of its first six bytes).
    init(path: String, tag: [UInt8], current: UInt16) {
        guard let fd = try? FileDescriptor.open(path, flags: O_RDONLY) else {
            self = .unrecognised
            return
        }
        defer { fd.close() }
        self.init((try? fd.read(at: 0, count: 6)) ?? [], tag: tag, current: current)
    }

    /// What the file at `path`, of kind `file`, declares.
    init(path: String, of file: SmallFile) {
        self.init(path: path, tag: file.tag, current: file.version)
    }

    /// `verify`'s note for `display`, a file of version `version` where this build uses
    /// `current`.
    static func note(_ display: String, version: UInt16, current: UInt16) -> String {
        let age = version < current ? "an older" : "a newer"
        return "\(display) is index version \(version), \(age) layout than this healthlog's \(current); it is ignored, and the next write or 'healthlog reindex' rebuilds it"
    }
}
