import Testing
@testable import HealthLogImport

/// The SHA-256 behind the import's content-derived UUIDs, against FIPS 180-4's examples.
@Suite("SHA-256")
struct SHA256Tests {
    @Test("Digests match the published test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(_ input: String, _ expected: String) {
        let hash = SHA256()
        hash.update(Array(input.utf8))
        #expect(hash.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() == expected)
    }

    @Test("A million 'a's, fed in uneven pieces, digest as one")
    func longInput() {
        let hash = SHA256()
        var left = 1_000_000
        var piece = 1
        while left > 0 {
            let count = min(piece, left)
            hash.update([UInt8](repeating: 0x61, count: count))
            left -= count
            piece = piece * 7 % 1000 + 1
        }
        let hex = hash.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
