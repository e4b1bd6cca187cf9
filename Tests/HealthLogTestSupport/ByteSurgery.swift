#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif
import Foundation

/// Byte-level surgery on a store's files, for the corruption and fault tests: read and write whole
/// files, flip a byte, cut bytes off the end, append bytes, patch bytes and refresh a
/// CRC-32C. Writes happen in place (same inode, same mode), the way damage happens.
public enum ByteSurgery {
    /// A failed system call in a test helper.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// The whole content of the file at `path`.
    public static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read \(path)") }
        return [UInt8](data)
    }

    /// Replaces the content of the file at `path` with `bytes`, in place (creating it 0600 if needed).
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try withFile(path, O_WRONLY | O_CREAT | O_TRUNC) { fd in try writeAll(fd, bytes, at: 0) }
    }

    /// The file's size in bytes.
    public static func size(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "cannot stat \(path): errno \(errno)") }
        return Int(info.st_size)
    }

    /// The permission bits of `path` (file or directory).
    public static func mode(_ path: String) throws -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "cannot stat \(path): errno \(errno)") }
        return info.st_mode & 0o7777
    }

    /// XORs the byte at `offset` with `mask` (all bits by default).
    public static func flip(_ path: String, at offset: Int, mask: UInt8 = 0xFF) throws {
        var bytes = try read(path)
        bytes[offset] ^= mask
        try patch(path, at: offset, with: [bytes[offset]])
    }

    /// Overwrites bytes at `offset` with `bytes`.
    public static func patch(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        try withFile(path, O_WRONLY) { fd in try writeAll(fd, bytes, at: offset) }
    }

    /// Cuts the file to `length` bytes.
    public static func truncate(_ path: String, to length: Int) throws {
        try withFile(path, O_WRONLY) { fd in
            guard ftruncate(fd, off_t(length)) == 0 else { throw Failure(description: "cannot truncate \(path): errno \(errno)") }
        }
    }

    /// Deletes the file.
    public static func remove(_ path: String) throws {
        guard unlink(path) == 0 else { throw Failure(description: "cannot remove \(path): errno \(errno)") }
    }

    /// Cuts the last `count` bytes off the file.
    public static func cut(_ path: String, bytes count: Int) throws {
        try truncate(path, to: try size(path) - count)
    }

    /// Appends `bytes` at the end of the file.
    public static func append(_ bytes: [UInt8], to path: String) throws {
        let end = try size(path)
        try withFile(path, O_WRONLY) { fd in try writeAll(fd, bytes, at: end) }
    }

    /// Every regular file under `directory` (relative path → content), to restore later.
    public static func image(of directory: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return files }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try read(path)
            }
        }
        return files
    }

    /// Puts `directory` back to `image`: removes files the image lacks, rewrites the others.
    public static func restore(_ image: [String: [UInt8]], to directory: String) throws {
        let current = try self.image(of: directory)
        for relative in current.keys where image[relative] == nil {
            try FileManager.default.removeItem(atPath: directory + "/" + relative)
        }
        for (relative, bytes) in image where current[relative] != bytes {
            // In place and without O_TRUNC where possible: truncating is the slow part.
            let path = directory + "/" + relative
            let length = current[relative]?.count
            try withFile(path, O_WRONLY | O_CREAT) { fd in
                try writeAll(fd, bytes, at: 0)
                if let length, length > bytes.count, ftruncate(fd, off_t(bytes.count)) != 0 {
                    throw Failure(description: "cannot truncate \(path): errno \(errno)")
                }
            }
        }
    }

    private static func withFile(_ path: String, _ flags: Int32, _ body: (Int32) throws -> Void) throws {
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        try body(fd)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            guard n > 0 else { throw Failure(description: "cannot write: errno \(errno)") }
            done += n
        }
    }
}
