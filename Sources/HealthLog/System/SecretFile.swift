#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A passphrase file or key file the user named, read straight into guarded memory
/// (``SecretBytes``), never into an ordinary array. A pipe works too
/// (`--passphrase-file <(pass show store)`).
enum SecretFile {
    /// The most bytes such a file may hold.
    static let maximumLength = 64 << 10
    /// The guarded buffer a read starts with (a key file's bytes, a passphrase): a longer
    /// file moves to one four times larger, and so on, so a short secret costs no
    /// ``maximumLength`` of locked memory to fill, wipe and unmap.
    static let firstReadLength = 4 << 10

    /// The bytes of the file at `path` (`what` names it in messages: "passphrase file").
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when it cannot be read, is empty or is
    ///   larger than ``maximumLength``.
    static func read(_ path: String, what: String) throws -> SecretBytes {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openNamedByUser(path, flags: O_RDONLY)
        } catch let error as HealthLogError {
            throw HealthLogError(.badUsage, "cannot read the \(what) \(path): \(error.errno.map(describeErrno) ?? error.message)")
        }
        defer { fd.close() }
        var length = 0
        /// Reads into `out` from `length` on, until it is full or the file ends.
        func readMore(into out: UnsafeMutableRawBufferPointer) throws {
            while length < out.count {
                let got = try fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: out[length...]))
                if got == 0 { return }
                length += got
            }
        }
        var buffer = try SecretBytes(count: firstReadLength, fill: readMore)
        while length == buffer.count, length <= maximumLength {
            let read = buffer
            buffer = try SecretBytes(count: min(length * 4, maximumLength + 1)) { out in
                read.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[..<length]).copyMemory(from: $0) }
                try readMore(into: out)
            }
        }
        guard length <= maximumLength else { throw HealthLogError(.badUsage, "the \(what) \(path) is larger than \(maximumLength >> 10) KiB") }
        guard length > 0 else { throw HealthLogError(.badUsage, "the \(what) \(path) is empty") }
        return SecretBytes(part: 0..<length, of: buffer)
    }
}
