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
}
