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

    /// The units of the batch's segment, whose salt a writer shares (``AES256GCM/UnitKeys``).
    var scope: AES256GCM.SaltScope { .segment(base: segmentBase, generation: generation) }

    /// The associated place of the batch's table: the batch's place and the header's fixed
    /// fields (`fixedFields`, from the tag to the padding), so none of those can change
    /// either.
    func tableBytes(fixedFields: some Collection<UInt8>) -> [UInt8] {
        var w = prefix(capacity: fixedFields.count)
        w.append(bytes: fixedFields)
        return w.bytes
    }

    /// The associated place of group `index`'s frame: the batch's place and everything the
    /// table says of the group but its stored length and checksum (which describe the unit
    /// itself), so a table that lies about a group's type, range or count does not open it.
    func groupBytes(_ index: Int, _ group: BatchHeader.Group) -> [UInt8] {
        var w = prefix(capacity: 45 + group.type.utf8.count)
        w.append(UInt16(index))
        w.append(group.kind)
        w.append(UInt16(group.type.utf8.count))
        w.append(bytes: group.type.utf8)
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
        var type = group.type
        return type.withUTF8 { type in
            // ``groupBytes(_:_:)``'s bytes, written on the stack: this runs for every frame read.
            withUnsafeTemporaryAllocation(byteCount: 65 + type.count, alignment: 8) { raw in
                raw.storeBytes(of: segmentBase.littleEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: generation.littleEndian, toByteOffset: 8, as: UInt32.self)
                raw.storeBytes(of: UInt64(offset).littleEndian, toByteOffset: 12, as: UInt64.self)
                raw.storeBytes(of: UInt16(index).littleEndian, toByteOffset: 20, as: UInt16.self)
                raw[22] = group.kind
                raw.storeBytes(of: UInt16(type.count).littleEndian, toByteOffset: 23, as: UInt16.self)
                if type.count > 0 { UnsafeMutableRawBufferPointer(rebasing: raw[25..<25 + type.count]).copyMemory(from: UnsafeRawBufferPointer(type)) }
                let at = 25 + type.count
                raw.storeBytes(of: group.count.littleEndian, toByteOffset: at, as: UInt32.self)
                raw.storeBytes(of: group.firstSeq.littleEndian, toByteOffset: at + 4, as: UInt64.self)
                raw.storeBytes(of: group.lastSeq.littleEndian, toByteOffset: at + 12, as: UInt64.self)
                raw.storeBytes(of: group.minStart.littleEndian, toByteOffset: at + 20, as: Int64.self)
                raw.storeBytes(of: group.maxEnd.littleEndian, toByteOffset: at + 28, as: Int64.self)
                raw.storeBytes(of: group.rawLength.littleEndian, toByteOffset: at + 36, as: UInt32.self)
                return cipher.openInPlace(unit, .groupFrame, place: UnsafeRawBufferPointer(raw))
            }
        }
    }

    /// The batch's place, in a writer with room for `capacity` bytes more (one allocation:
    /// a place is built for every unit opened).
    private func prefix(capacity: Int) -> ByteWriter {
        var w = ByteWriter()
        w.bytes.reserveCapacity(20 + capacity)
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
        var out: [UInt8] = []
        let header = sealed(bytes, at: place, into: &out)
        return (header, out)
    }

    /// ``sealed(_:at:)`` written into `out`, whose bytes it replaces (its room is kept, so a
    /// buffer given again is not allocated and faulted in afresh); returns the header. The
    /// frames are sealed straight into their place after the header, which is written last.
    func sealed(_ bytes: [UInt8], at place: BatchPlace, into out: inout [UInt8]) -> BatchHeader {
        var header = self
        header.flags |= FormatConstants.flagSealed
        let total = sealedLength(bytes.count)
        let framesStart = total - framesLength - groups.count * StoreCipher.overhead
        out.resize(forOverwrite: total)
        let framesCRC = out.withUnsafeMutableBytes { out in
            var at = bytes.count - framesLength
            var unitStart = framesStart
            for index in groups.indices {
                let length = Int(groups[index].frameLength)
                let unit = UnsafeMutableRawBufferPointer(rebasing: out[unitStart..<unitStart + length + StoreCipher.overhead])
                bytes.withUnsafeBytes { raw in
                    place.cipher.seal(
                        UnsafeRawBufferPointer(rebasing: raw[at..<at + length]), .groupFrame, place: place.groupBytes(index, groups[index]), scope: place.scope, into: unit)
                }
                header.groups[index].frameLength = UInt32(unit.count)
                header.groups[index].frameCRC = CRC32C.checksum(UnsafeRawBufferPointer(unit))
                at += length
                unitStart += unit.count
            }
            return CRC32C.checksum(UnsafeRawBufferPointer(rebasing: out[framesStart...]))
        }
        let encoded = header.encoded(sealingAt: place, framesCRC: framesCRC)
        precondition(encoded.count == framesStart, "a sealed header's length")
        encoded.withUnsafeBytes { encoded in out.withUnsafeMutableBytes { $0.copyMemory(from: encoded) } }
        return header
    }

    /// The length ``sealed(_:at:)`` gives a batch whose plaintext encoding is `length` bytes.
    func sealedLength(_ length: Int) -> Int {
        length + (groups.count + 1) * StoreCipher.overhead + 4
    }
}
