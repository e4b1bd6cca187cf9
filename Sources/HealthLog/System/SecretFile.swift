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
        let buffer = try SecretBytes(count: maximumLength + 1) { out in
            while length < out.count {
                let got = try fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: out[length...]))
                if got == 0 { break }
                length += got
            }
        }
        guard length <= maximumLength else { throw HealthLogError(.badUsage, "the \(what) \(path) is larger than \(maximumLength >> 10) KiB") }
        guard length > 0 else { throw HealthLogError(.badUsage, "the \(what) \(path) is empty") }
        return try buffer.withUnsafeBytes { try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }
}
