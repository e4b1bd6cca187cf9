#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a prefix of a file to a new file atomically, through ``DurableFile``: into
/// `DEST.tmp` (mode 0600), fsync, rename over `DEST`. The destination is never seen
/// half-written.
enum FileCopy {
    /// The bytes read at a time when copying or comparing.
    static let chunkBytes = 1 << 20

    /// Copies the first `length` bytes of `source` to `destination`, feeding them to
    /// `digest` when given; returns `length`.
    @discardableResult
    static func copy(_ source: String, length: Int, to destination: String, digest: SHA256Digest? = nil) throws -> Int {
        let input = try FileDescriptor.open(source, flags: O_RDONLY)
        defer { input.close() }
        try DurableFile.replace(destination, syncDirectory: false) { output in
            var buffer: [UInt8] = []
            var done = 0
            while done < length {
                buffer = try input.read(at: done, count: min(chunkBytes, length - done))
                guard !buffer.isEmpty else {
                    throw HealthLogError(.io, "\(source): ended at byte \(done) while copying \(length) bytes")
                }
                try output.write(buffer, at: done)
                try digest?.update(buffer)
                done += buffer.count
            }
        }
        return length
    }

    /// Whether `destination` is exactly the first `length` bytes of `source`: the same size,
    /// then the same bytes, compared a chunk at a time (`pread(2)` of both). A missing or
    /// unreadable destination is not a copy. The destination's bytes go to `digest` as they
    /// are compared, so a kept file need not be read again to be digested.
    static func isCopy(_ destination: String, of source: String, length: Int, digest: SHA256Digest? = nil) throws -> Bool {
        guard let output = try? FileDescriptor.open(destination, flags: O_RDONLY) else { return false }
        defer { output.close() }
        guard (try? output.size()) == length else { return false }
        let input = try FileDescriptor.open(source, flags: O_RDONLY)
        defer { input.close() }
        var expected = [UInt8](repeating: 0, count: min(chunkBytes, length))
        var found = expected
        var done = 0
        while done < length {
            let count = min(chunkBytes, length - done)
            if expected.count != count {
                expected = [UInt8](repeating: 0, count: count)
                found = expected
            }
            guard try input.read(into: &expected, at: done) == count else {
                throw HealthLogError(.io, "\(source): ended at byte \(done) while comparing \(length) bytes")
            }
            guard (try? output.read(into: &found, at: done)) == count, found == expected else { return false }
            try digest?.update(found)
            done += count
        }
        return true
    }
}
