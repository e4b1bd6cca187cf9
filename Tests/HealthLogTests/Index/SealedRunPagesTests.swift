import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A sealed UUID run read a page at a time (``UUIDFingerprintRun/SealedPages``): the same
/// answers as the plaintext run, a damaged page named by its byte offset when the run opens
/// and refused when it changed after, and memory bounded by the page slots and the
/// directory's cap rather than the run's size.
@Suite("Sealed UUID run pages")
struct SealedRunPagesTests {
    /// A run of `count` random keys from event 3, written in the clear and sealed with
    /// `cipher` under `dir`: the keys and both paths.
    static func runs(_ count: Int, cipher: StoreCipher, in dir: TemporaryDirectory) throws -> (keys: [UInt64], plain: String, sealed: String) {
        let (keys, to) = UUIDFingerprintRunStreamTests.keys(count, from: 3, seed: 41)
        let binding = LogBinding(storeID: cipher.storeID, check: 9)
        let plain = dir.path + "/plain.run"
        let sealed = dir.path + "/sealed.run"
        _ = try UUIDFingerprintRunStreamTests.streamed(keys, from: 3, to: to, binding: binding, cipher: nil, path: plain)
        _ = try UUIDFingerprintRunStreamTests.streamed(keys, from: 3, to: to, binding: binding, cipher: cipher, path: sealed)
        return (keys, plain, sealed)
    }

    /// The blocks `run` names for `fingerprint`.
    static func blocks(_ run: UUIDFingerprintRun, _ fingerprint: UInt32) -> [UInt64] {
        var out: [UInt64] = []
        run.forEachCandidateBlock(fingerprint: fingerprint) { out.append($0) }
        return out
    }

    @Test("A sealed run read page by page names the blocks the plaintext run names, for present and absent fingerprints, with any directory size", arguments: [UnitCipher.aes256GCM, .xchacha20Poly1305])
    func sameAnswers(_ unit: UnitCipher) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try UUIDFingerprintRunStreamTests.cipher(unit)
        let (keys, plainPath, sealedPath) = try Self.runs(300_000, cipher: cipher, in: dir)
        let plain = try #require(UUIDFingerprintRun(path: plainPath, cipher: nil))
        let sealed = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher, wholePages: 16))
        let sparse = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher, directoryEntries: 64, wholePages: 16))
        let whole = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher))
        #expect(sealed.byteCount / UUIDFingerprintRun.sealedPageBytes > 4 * UUIDFingerprintRun.SealedPages.slots, "more pages than the slots hold")
        #expect(sparse.bucketsPerEntry > 1_000 && sparse.directoryBytes <= 64 * 16)
        var random = SeededRandom(state: 5)
        var fingerprints = stride(from: 0, to: keys.count, by: 97).map { UInt32(keys[$0] >> 32) }
        fingerprints += (0..<3_000).map { _ in UInt32(truncatingIfNeeded: random.next()) }
        for fingerprint in fingerprints {
            let expected = Self.blocks(plain, fingerprint)
            #expect(Self.blocks(sealed, fingerprint) == expected)
            #expect(Self.blocks(sparse, fingerprint) == expected)
            #expect(Self.blocks(whole, fingerprint) == expected)
        }
        #expect(sealed.keys() == keys && sparse.keys() == keys && whole.keys() == keys)
        #expect(!sealed.isDamaged)
    }

    @Test("A sealed page that does not open is named by its byte offset when the run opens, its checksum made to match")
    func damagedPageLocated() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try UUIDFingerprintRunStreamTests.cipher(.aes256GCM)
        let (_, _, sealedPath) = try Self.runs(100_000, cipher: cipher, in: dir)
        let pristine = try ByteSurgery.read(sealedPath)
        for page in [0, 7, (pristine.count - UUIDFingerprintRun.headerLength - 1) / UUIDFingerprintRun.sealedPageBytes] {
            var bytes = pristine
            bytes[UUIDFingerprintRun.SealedPages.offset(ofPage: page) + 100] ^= 0x10
            let recrc = UUIDFingerprintRun.file.resealed(bytes, at: 36, with: withUnsafeBytes(of: CRC32C.checksum(bytes[64...]).littleEndian, Array.init))
            try ByteSurgery.write(recrc, to: dir.path + "/damaged.run")
            var reported: (Int, String)?
            #expect(UUIDFingerprintRun(path: dir.path + "/damaged.run", cipher: cipher, damage: { reported = ($0, $1) }) == nil)
            #expect(reported?.0 == UUIDFingerprintRun.SealedPages.offset(ofPage: page))
            #expect(reported?.1 == "sealed page \(page) does not open")
            try ByteSurgery.write(bytes, to: dir.path + "/damaged.run")
            #expect(UUIDFingerprintRun(path: dir.path + "/damaged.run", cipher: cipher, damage: { reported = ($0, $1) }) == nil)
            #expect(reported?.0 == UUIDFingerprintRun.headerLength && reported?.1 == "body checksum")
        }
    }

    @Test("A sealed page changed after the run opened marks it damaged at its byte offset: a lookup, the key cursor and a merge refuse it, nothing crashes")
    func changedAfterOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try UUIDFingerprintRunStreamTests.cipher(.xchacha20Poly1305)
        let (keys, _, sealedPath) = try Self.runs(300_000, cipher: cipher, in: dir)
        let run = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher, wholePages: 16))
        let k = keys.count / 2
        let page = (run.fieldOffset(k) - UUIDFingerprintRun.headerLength) / UUIDFingerprintRun.sealedPageBytes
        try ByteSurgery.flip(sealedPath, at: run.fieldOffset(k) + 50)
        _ = Self.blocks(run, UInt32(keys[k] >> 32))
        #expect(run.isDamaged)
        #expect(run.failedPageOffset == UUIDFingerprintRun.SealedPages.offset(ofPage: page))
        let error = #expect(throws: HealthLogError.self) { try run.checkIntact() }
        #expect(error?.code == .corrupt && error?.message.contains("at byte \(run.fieldOffset(k))") == true)
        var cursor = UUIDFingerprintRun.KeyCursor(run)
        var given = 0
        while cursor.next() != nil { given += 1 }
        #expect(given < k, "the cursor stops at the page that does not open")
        try OwnedDirectory.prepare(dir.path + "/merged")
        #expect(throws: HealthLogError.self) { try UUIDFingerprintRun.writeMerged([run], cipher: cipher, directory: dir.path + "/merged") }
    }

    @Test("A sealed run of up to the whole-run limit is opened once, its lookups opening no page again; a larger one opens the pages its lookups read")
    func smallRunsHeldWhole() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try UUIDFingerprintRunStreamTests.cipher(.aes256GCM)
        let (keys, _, sealedPath) = try Self.runs(100_000, cipher: cipher, in: dir)
        for (limit, reopens) in [(UUIDFingerprintRun.SealedPages.wholePages, false), (16, true)] {
            let run = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher, wholePages: limit))
            let opened = cipher.openedCount(.derivedFile)
            for k in stride(from: 0, to: keys.count, by: 101) { _ = Self.blocks(run, UInt32(keys[k] >> 32)) }
            #expect((cipher.openedCount(.derivedFile) > opened) == reopens, "limit \(limit)")
        }
    }

    @Test("A run's memory beside its mapping is bounded: the page slots, and a directory of at most the cap's entries however many buckets")
    func bounds() throws {
        #expect(UUIDFingerprintRun.SealedPages.slots * UUIDFingerprintRun.pageBytes <= 1 << 17)
        #expect(UUIDFingerprintRun.SealedPages.wholePages * UUIDFingerprintRun.pageBytes <= 4 << 20)
        #expect(UUIDFingerprintRun.maxDirectoryEntries * 16 <= 4 << 20)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try UUIDFingerprintRunStreamTests.cipher(.aes256GCM)
        let (_, plainPath, sealedPath) = try Self.runs(300_000, cipher: cipher, in: dir)
        for entries in [16, 1_024, UUIDFingerprintRun.maxDirectoryEntries] {
            let plain = try #require(UUIDFingerprintRun(path: plainPath, cipher: nil, directoryEntries: entries))
            let sealed = try #require(UUIDFingerprintRun(path: sealedPath, cipher: cipher, directoryEntries: entries))
            #expect(plain.directoryBytes <= 16 * entries && sealed.directoryBytes == plain.directoryBytes)
        }
    }
}
