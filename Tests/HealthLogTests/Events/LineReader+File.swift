import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

extension LineReader {
    /// Calls `body` with a reader of a file named `input.ndjson` holding `bytes`, in a
    /// temporary directory removed after.
    static func withFile<R>(holding bytes: [UInt8], _ body: (inout LineReader) throws -> R) throws -> R {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("input.ndjson")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var reader = LineReader(fileDescriptor: fd, name: "input.ndjson")
        return try body(&reader)
    }
}
