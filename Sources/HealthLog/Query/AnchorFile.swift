#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that holds one anchor token, as `replay --anchor-file` keeps it: read before a
/// query, replaced atomically (temporary file, fsync, rename, directory fsync) after the
/// query's output is safely out, so a crash never leaves an anchor ahead of the data.
package enum AnchorFile {
    /// The anchor in the file at `path`, or `nil` when the file does not exist.
    /// - Throws: ``HealthLogError/Code/anchorRefused`` when its content is malformed.
    package static func read(_ path: String) throws -> QueryAnchor? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openNamedByUser(path, flags: O_RDONLY)
        } catch let error as HealthLogError where error.errno == ENOENT {
            return nil
        }
        defer { fd.close() }
        let bytes = try fd.read(at: 0, count: 4096)
        let text = String(decoding: bytes, as: UTF8.self).trimmingBlanks()
        do {
            return try QueryAnchor(token: text)
        } catch let error as HealthLogError {
            throw HealthLogError(.anchorRefused, "\(path): \(error.message)")
        }
    }

    /// Replaces the file at `path` with `anchor`'s token (mode 0600), durably.
    package static func write(_ anchor: QueryAnchor, to path: String) throws {
        try DurableFile.replace(path, with: Array((anchor.token + "\n").utf8))
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingBlanks() -> String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        guard let first = firstIndex(where: { !blanks.contains($0) }), let last = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
