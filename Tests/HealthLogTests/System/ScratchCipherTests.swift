import Testing
@testable import HealthLog

/// ``ScratchCipher``: blocks sealed under the process's key open only as what and where
/// they were sealed, and unchanged.
@Suite("Scratch cipher")
struct ScratchCipherTests {
    private static let text = Array("HKQuantityTypeIdentifierHeartRate 72 count/min".utf8)

    @Test("A sealed block opens back to its plaintext, and holds none of it")
    func roundTrip() throws {
        let cipher = try ScratchCipher.forProcess()
        #expect(try ScratchCipher.forProcess() === cipher, "one key per process")
        let sealed = Self.text.withUnsafeBytes { cipher.seal($0, .stubs, place: (1, 2, 3)) }
        #expect(sealed.count == Self.text.count + ScratchCipher.overhead)
        #expect(!sealed.starts(with: Self.text) && !(0..<sealed.count - 8).contains { sealed[$0..<$0 + 8].elementsEqual(Self.text[0..<8]) })
        #expect(Self.open(sealed, .stubs, (1, 2, 3)) == Self.text)
    }

    @Test("A block opened as another kind, at another place, or with any byte flipped does not open")
    func refusals() throws {
        let cipher = try ScratchCipher.forProcess()
        let sealed = Self.text.withUnsafeBytes { cipher.seal($0, .uuidRunPage, place: (5, 9, 0)) }
        #expect(Self.open(sealed, .uuidRunTable, (5, 9, 0)) == nil)
        #expect(Self.open(sealed, .uuidRunPage, (5, 9, 1)) == nil)
        #expect(Self.open(sealed, .uuidRunPage, (5, 8, 0)) == nil)
        for at in [0, 23, 24, sealed.count / 2, sealed.count - 1] {
            var changed = sealed
            changed[at] ^= 0x01
            #expect(Self.open(changed, .uuidRunPage, (5, 9, 0)) == nil, "byte \(at)")
        }
        #expect(Self.open(Array(sealed.dropLast()), .uuidRunPage, (5, 9, 0)) == nil)
    }

    @Test("Blocks sealed at once on many threads each open, and no two share their first 24 bytes")
    func concurrentBlocks() async throws {
        let cipher = try ScratchCipher.forProcess()
        let blocks = await withTaskGroup(of: [(UInt64, [UInt8])].self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<200).map { k in
                        let place = UInt64(task * 1_000 + k)
                        return (place, Self.text.withUnsafeBytes { cipher.seal($0, .mergeRun, place: (place, 0, 0)) })
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(blocks.count == 1_600)
        #expect(Set(blocks.map { Array($0.1.prefix(24)) }).count == blocks.count, "a nonce never repeats under the process's key")
        let opened = await withTaskGroup(of: Int.self) { group in
            for slice in stride(from: 0, to: blocks.count, by: 200) {
                group.addTask { blocks[slice..<slice + 200].filter { Self.open($0.1, .mergeRun, ($0.0, 0, 0)) == Self.text }.count }
            }
            return await group.reduce(0, +)
        }
        #expect(opened == blocks.count)
    }

    /// `sealed` opened as `kind` at `place`, or `nil`.
    private static func open(_ sealed: [UInt8], _ kind: ScratchCipher.Kind, _ place: (UInt64, UInt64, UInt64)) -> [UInt8]? {
        guard let cipher = try? ScratchCipher.forProcess(), sealed.count >= ScratchCipher.overhead else { return nil }
        var out = [UInt8](repeating: 0, count: sealed.count - ScratchCipher.overhead)
        let opened = sealed.withUnsafeBytes { s in out.withUnsafeMutableBytes { cipher.open(s, kind, place: place, into: $0) } }
        return opened ? out : nil
    }
}
