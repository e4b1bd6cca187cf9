#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a prefix of a file to a new file atomically: into `DEST.tmp` (mode 0600), fsync,
/// rename over `DEST`. The destination is never seen half-written.
enum FileCopy {
    /// Copies the first `length` bytes of `source` to `destination`; returns `length`.
    @discardableResult
    static func copy(_ source: String, length: Int, to destination: String) throws -> Int {
        let input = try FileDescriptor.open(source, flags: O_RDONLY)
        defer { input.close() }
        let temporary = destination + DurableFile.temporarySuffix
        let output = try FileDescriptor.createExclusive(temporary)
        do {
            var buffer: [UInt8] = []
            var done = 0
            while done < length {
                buffer = try input.read(at: done, count: min(4 << 20, length - done))
                guard !buffer.isEmpty else {
                    throw HealthLogError(.io, "\(source): ended at byte \(done) while copying \(length) bytes")
                }
                try output.write(buffer, at: done)
                done += buffer.count
            }
            try output.sync()
            output.close()
        } catch {
            output.close()
            unlink(temporary)
            throw error
        }
        _ = try retryingOnInterrupt("rename", path: temporary) { rename(temporary, destination) }
        return length
    }
}
