/// Where a batch of an encrypted store lies (its segment, the segment's generation and the
/// batch's offset in it), with the store's cipher: the place its sealed units are bound to,
/// so a unit moved to another batch, offset, segment or generation no longer opens
/// (<doc:Format#Encrypted-stores>).
struct BatchPlace: Sendable {
    /// The store's cipher.
    let cipher: StoreCipher
    /// The segment's base sequence number.
    let segmentBase: UInt64
    /// The segment's compaction generation.
    let generation: UInt32
    /// The batch header's offset in the segment file.
    let offset: Int

    /// The associated place of the batch's table: the batch's place and the header's fixed
    /// fields (`fixedFields`, from the tag to the padding), so none of those can change
    /// either.
    func tableBytes(fixedFields: [UInt8]) -> [UInt8] {
        var w = prefix()
        w.append(bytes: fixedFields)
        return w.bytes
    }

    /// The associated place of group `index`'s frame: the batch's place and everything the
    /// table says of the group but its stored length and checksum (which describe the unit
    /// itself), so a table that lies about a group's type, range or count does not open it.
    func groupBytes(_ index: Int, _ group: BatchHeader.Group) -> [UInt8] {
        var w = prefix()
        w.append(UInt16(index))
        w.append(group.kind)
        w.append(UInt16(group.type.utf8.count))
        w.append(bytes: Array(group.type.utf8))
        w.append(group.count)
        w.append(group.firstSeq)
        w.append(group.lastSeq)
        w.append(group.minStart)
        w.append(group.maxEnd)
        w.append(group.rawLength)
        return w.bytes
    }

    /// Opens group `index`'s sealed frame, `unit` (as stored), in place; returns where in
    /// `unit` its LZ4 frame lies, `nil` when it does not open.
    func openGroup(_ index: Int, _ group: BatchHeader.Group, in unit: UnsafeMutableRawBufferPointer) -> Range<Int>? {
        cipher.openInPlace(unit, .groupFrame, place: groupBytes(index, group))
    }

    private func prefix() -> ByteWriter {
        var w = ByteWriter()
        w.append(segmentBase)
        w.append(generation)
        w.append(UInt64(offset))
        return w
    }
}

extension BatchHeader {
    /// The batch `bytes` (this header's plaintext encoding, then its LZ4 frames) as an
    /// encrypted store writes it at `place`: each frame sealed as a unit, the table sealed,
    /// and the header that describes the sealed frames.
    func sealed(_ bytes: [UInt8], at place: BatchPlace) -> (header: BatchHeader, bytes: [UInt8]) {
        var header = self
        header.flags |= FormatConstants.flagSealed
        var frames: [UInt8] = []
        frames.reserveCapacity(framesLength + groups.count * StoreCipher.overhead)
        var at = bytes.count - framesLength
        for index in groups.indices {
            let length = Int(groups[index].frameLength)
            let unitStart = frames.count
            frames.append(contentsOf: repeatElement(0, count: length + StoreCipher.overhead))
            let groupPlace = place.groupBytes(index, groups[index])
            bytes.withUnsafeBytes { raw in
                frames.withUnsafeMutableBytes { out in
                    place.cipher.seal(
                        UnsafeRawBufferPointer(rebasing: raw[at..<at + length]), .groupFrame, place: groupPlace,
                        into: UnsafeMutableRawBufferPointer(rebasing: out[unitStart...]))
                }
            }
            header.groups[index].frameLength = UInt32(length + StoreCipher.overhead)
            header.groups[index].frameCRC = frames.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[unitStart...])) }
            at += length
        }
        return (header, header.encoded(sealingAt: place, framesCRC: CRC32C.checksum(frames[...])) + frames)
    }

    /// The length ``sealed(_:at:)`` gives a batch whose plaintext encoding is `length` bytes.
    func sealedLength(_ length: Int) -> Int {
        length + (groups.count + 1) * StoreCipher.overhead + 4
    }
}
