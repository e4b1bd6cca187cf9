import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A key file or passphrase file is read whole into guarded memory, from a first small
/// buffer that grows for a longer file, up to ``SecretFile/maximumLength``.
@Suite("Secret files")
struct SecretFileTests {
    @Test("A file of any length up to the limit reads back byte for byte, across the buffer's growth; one byte more is refused", arguments: [
        1, 32, SecretFile.firstReadLength - 1, SecretFile.firstReadLength, SecretFile.firstReadLength + 1, 4 * SecretFile.firstReadLength + 7,
        SecretFile.maximumLength, SecretFile.maximumLength + 1,
    ])
    func readsWhole(_ length: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 8) }
        let path = dir.file("key")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard length <= SecretFile.maximumLength else {
            #expect(throws: HealthLogError.self) { try SecretFile.read(path, what: "key file") }
            return
        }
        let read = try SecretFile.read(path, what: "key file")
        #expect(read.count == length)
        #expect(read.withUnsafeBytes { Array($0) } == bytes)
    }
}
