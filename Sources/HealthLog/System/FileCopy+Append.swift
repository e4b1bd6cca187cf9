#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileCopy {
    /// Copies the bytes `range` of `source` into `destination` at the same offsets, in
    /// place (`pwrite(2)`, then `fsync(2)`), feeding them to `digest`: a file copied before
    /// grows by what its source gained since. The caller makes sure `destination` holds the
    /// bytes before `range.lowerBound` and that no reader relies on it meanwhile.
    static func append(_ source: String, range: Range<Int>, to destination: String, digest: SHA256Digest) throws {
        let input = try FileDescriptor.open(source, flags: O_RDONLY)
        defer { input.close() }
        let output = try FileDescriptor.open(destination, flags: O_WRONLY)
        defer { output.close() }
        var done = range.lowerBound
        while done < range.upperBound {
            let buffer = try input.read(at: done, count: min(chunkBytes, range.upperBound - done))
            guard !buffer.isEmpty else {
                throw HealthLogError(.io, "\(source): ended at byte \(done) while copying up to byte \(range.upperBound)")
            }
            try output.write(buffer, at: done)
            try digest.update(buffer)
            done += buffer.count
        }
        try output.sync()
    }
}
