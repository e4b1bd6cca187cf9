#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 of whole files, a chunk at a time: what a backup manifest records for each file,
/// and what a restore checks each copied file against.
enum FileDigest {
    /// A file's size and SHA-256 (hex).
    struct Result: Equatable {
        /// Bytes read.
        var size: Int
        /// Their SHA-256, 64 lowercase hex digits.
        var sha256: String
    }

    /// The size and digest of the store file at `path` (opened as a store file: no link
    /// followed, a regular file of this user's).
    static func of(_ path: String) throws -> Result {
        let input = try FileDescriptor.open(path, flags: O_RDONLY)
        defer { input.close() }
        return try stream(input) { _, _ in }
    }

    /// Copies the store file `source` to a new file `destination` (created with `O_EXCL`,
    /// mode 0600, fsynced), digesting exactly the bytes written.
    static func copy(_ source: String, to destination: String) throws -> Result {
        let input = try FileDescriptor.open(source, flags: O_RDONLY)
        defer { input.close() }
        let output = try FileDescriptor.createExclusive(destination)
        defer { output.close() }
        let result = try stream(input) { chunk, offset in try output.write(chunk, at: offset) }
        try output.sync()
        return result
    }

    /// Reads `input` to its end, handing each chunk and its offset to `use`.
    private static func stream(_ input: FileDescriptor, _ use: ([UInt8], Int) throws -> Void) throws -> Result {
        let digest = try SHA256Digest()
        var buffer = [UInt8](repeating: 0, count: FileCopy.chunkBytes)
        var done = 0
        while true {
            let count = try input.read(into: &buffer, at: done)
            if count == 0 { break }
            let chunk = count == buffer.count ? buffer : Array(buffer[0..<count])
            try digest.update(chunk)
            try use(chunk, done)
            done += count
        }
        return Result(size: done, sha256: try digest.finish())
    }
}
