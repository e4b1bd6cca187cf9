/// The sealed side of reading a batch of an encrypted store: where its units are bound,
/// and its group frames opened before they are decompressed.
extension SegmentFile {
    /// The place of the batch at `offset` of this segment, for `cipher`.
    func place(_ offset: Int, cipher: StoreCipher) -> BatchPlace {
        BatchPlace(cipher: cipher, segmentBase: name.baseSeq, generation: name.generation, offset: offset)
    }

    /// The LZ4 frame of group `group` of `batch` (a batch of this segment) from its stored
    /// bytes `stored`, whose CRC-32C the caller checked: `stored` itself for a plaintext
    /// batch; for a sealed one, the frame `stored` opens to, in place.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the frame when a sealed frame does
    ///   not open (changed, moved, or its table lies about it), or the store gave no key;
    ///   ``HealthLogError/Code/keyRequired`` when it is sealed under a key epoch the keys lack.
    func frame(_ stored: UnsafeMutableRawBufferPointer, group: Int, of batch: BatchRef, cipher: StoreCipher?) throws -> UnsafeRawBufferPointer {
        guard batch.header.isSealed else { return UnsafeRawBufferPointer(stored) }
        let entry = batch.header.groups[group]
        guard let cipher else {
            throw HealthLogError(.corrupt, "\(location(batch.groupOffsets[group])): a sealed frame in a store whose meta says it is not encrypted")
        }
        guard let frame = place(batch.offset, cipher: cipher).openGroup(batch.position(group), entry, in: stored) else {
            if let epoch = StoreCipher.epoch(of: UnsafeRawBufferPointer(stored)), !cipher.epochs.contains(epoch) {
                // Its table opened, so the frame is what was written: a missing key, as
                // for a table, not damage.
                throw HealthLogError(
                    .keyRequired,
                    "\(location(batch.groupOffsets[group])): sealed under key epoch \(epoch), which the keys opened for this command lack (the key slots changed while it ran?): run it again")
            }
            throw HealthLogError(
                .corrupt,
                "\(location(batch.groupOffsets[group])): \(cipher.failure(of: UnsafeRawBufferPointer(stored))) (\(entry.type) events \(entry.firstSeq)...\(entry.lastSeq))")
        }
        return UnsafeRawBufferPointer(rebasing: stored[frame])
    }

    /// The LZ4 frame of group `group` of `batch` from its stored bytes `stored`, read from
    /// this segment and checked: the CRC-32C of the stored bytes, then, for a sealed batch,
    /// the frame they open to in place (``frame(_:group:of:cipher:)``).
    ///
    /// A sealed frame's tag authenticates every stored byte (the epoch through the associated
    /// data, the nonce, the ciphertext), so unless `checkContent` asks for every check, its
    /// checksum is taken only when it does not open, from the bytes read again (opening
    /// wrote over them): damage is still named a checksum mismatch, and a replay does not
    /// pass every sealed byte through CRC-32C as well as through the cipher.
    func checkedFrame(
        _ stored: UnsafeMutableRawBufferPointer, group: Int, of batch: BatchRef, cipher: StoreCipher?, checkContent: Bool
    ) throws -> UnsafeRawBufferPointer {
        let entry = batch.header.groups[group]
        let offset = batch.groupOffsets[group]
        let mismatch = { HealthLogError(.corrupt, "\(location(offset)): frame checksum mismatch (\(entry.type) events \(entry.firstSeq)...\(entry.lastSeq))") }
        guard batch.header.isSealed, cipher != nil, !checkContent else {
            guard CRC32C.checksum(UnsafeRawBufferPointer(stored)) == entry.frameCRC else { throw mismatch() }
            return try frame(stored, group: group, of: batch, cipher: cipher)
        }
        do {
            return try frame(stored, group: group, of: batch, cipher: cipher)
        } catch let error as HealthLogError where error.code == .corrupt {
            let again = try read(at: offset, count: Int(entry.frameLength))
            if again.count == Int(entry.frameLength), CRC32C.checksum(again[...]) != entry.frameCRC { throw mismatch() }
            throw error
        }
    }
}
