#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites a plaintext store encrypted (`restore --encrypt`, on the copy built beside the
/// target before it is verified), the reverse of ``StoreDecryption``: a new data key
/// (epoch 0) and a first key slot for `material`, then every batch sealed for its place,
/// each segment keeping its name (base sequence number and generation) and its segment
/// header, so the store's identity, every sequence number and every anchor stay valid. The
/// checkpoint then names the head's new offset, the compactions record keeps its
/// generations without the checkpoint moves, `meta` says encrypted, and the segment indexes
/// and derived files are removed for the verify pass and the next writer to write again,
/// sealed. Each segment is written to a temporary name, fsynced and renamed over the plain
/// one; the caller fsyncs the directories.
struct StoreEncryption {
    /// The copy.
    let layout: StoreLayout
    /// The passphrase or key file of the first key slot.
    let material: SecretMaterial
    /// The Argon2id cost of a passphrase slot.
    let cost: Argon2id.Cost
    /// The cipher of the data key's epoch.
    let cipher: UnitCipher
    /// The test faults (the segment writes go through them).
    let faults: FaultCounter

    /// Rewrites the store; returns the cipher that now opens it.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the store is encrypted already.
    func run() throws -> StoreCipher {
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        guard snapshot.cipher == nil, !snapshot.meta.isEncrypted else {
            throw HealthLogError(.badUsage, "the backup holds an encrypted store already: restore it without --encrypt")
        }
        let storeID = snapshot.meta.storeID
        let keys = [UInt32(0): try SecretBytes.random(count: XChaCha20Poly1305.keyLength)]
        let ciphers = [UInt32(0): cipher]
        let storeCipher = StoreCipher(storeID: storeID, keys: keys, ciphers: ciphers, current: 0)
        try SegmentRecoding(layout: layout, faults: faults).run(snapshot) { header, plain, segment, offset in
            header.sealed(plain, at: BatchPlace(cipher: storeCipher, segmentBase: segment.baseSeq, generation: segment.generation, offset: offset)).bytes
        }
        let uuids = layout.directory + "/uuids"
        for name in (try? DirectoryListing.names(in: uuids)) ?? [] { unlink(uuids + "/" + name) }
        let authority = try SecretBytes.random(count: KeySlot.authorityLength)
        try KeySlots.write(KeySlots.make(id: 1, material: material, storeID: storeID, keys: keys, ciphers: ciphers, authority: authority, cost: cost), layout)
        try DurableFile.replace(layout.meta, with: Array(StoreMeta.new(storeID, encrypted: true).text.utf8), syncDirectory: false)
        return storeCipher
    }
}
