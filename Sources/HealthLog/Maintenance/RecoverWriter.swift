#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the store `recover` builds: `meta` with the damaged store's identity, the plan's
/// batches byte for byte in new segments (a new segment at a batch once the current one
/// holds `segmentBytes`, named for that batch's first number),
/// the checkpoint at the last batch, the timelines, every file fsynced (0600, directories
/// 0700) and the directories after. An encrypted store's batches are each opened at their
/// old place and sealed again for the new one (new segment, new offset), its `meta` says
/// encrypted, and its key slots are copied.
struct RecoverWriter {
    /// The new store.
    let layout: StoreLayout
    /// Its identity.
    let storeID: StoreID
    /// The size at which a segment is closed and the next one started.
    let segmentBytes: Int
    /// The cipher of an encrypted store; `nil` for a plaintext one.
    var cipher: StoreCipher? = nil
    /// The damaged store's key-slot directory, copied into an encrypted new store.
    var keySlots: String? = nil

    /// Writes everything `plan` holds; returns how many key slots were copied.
    @discardableResult
    func write(_ plan: RecoverPlan) throws -> Int {
        try OwnedDirectory.prepare(layout.segments)
        let slots = cipher == nil ? 0 : try copyKeySlots()
        try DurableFile.replace(layout.meta, with: Array(StoreMeta.new(storeID, encrypted: cipher != nil).text.utf8))
        var current: (base: UInt64, fd: FileDescriptor, offset: Int)?
        var input: (path: String, fd: FileDescriptor)?
        defer {
            current?.fd.close()
            input?.fd.close()
        }
        for batch in plan.batches {
            if input?.path != batch.path {
                input?.fd.close()
                input = nil
                input = (batch.path, try FileDescriptor.open(batch.path, flags: O_RDONLY))
            }
            if current == nil || (current!.offset + batch.length > segmentBytes && current!.offset > SegmentLayout.prologueLength) {
                if let open = current {
                    try open.fd.sync()
                    open.fd.close()
                    current = nil
                }
                current = try start(baseSeq: batch.firstSeq)
            }
            let bytes: [UInt8]
            if let cipher {
                let place = BatchPlace(cipher: cipher, segmentBase: current!.base, generation: 0, offset: current!.offset)
                bytes = try Self.resealed(batch, try Self.stored(batch, from: input!.fd), at: place)
            } else {
                bytes = try Self.bytes(of: batch, from: input!.fd)
            }
            try current!.fd.write(bytes, at: current!.offset)
            current!.offset += bytes.count
        }
        if let open = current {
            try open.fd.sync()
            if let last = plan.batches.last {
                try Checkpoint(seq: last.lastSeq, segmentBase: open.base, endOffset: UInt64(open.offset)).write(layout, sync: true)
            }
        }
        if !plan.timelines.starts.isEmpty { try plan.timelines.write(layout) }
        try DurableFile.syncDirectory(layout.segments)
        try DurableFile.syncDirectory(layout.directory)
        return slots
    }

    /// Copies every key slot (`*.slot`) of ``keySlots`` into the new store's `keys/` (0700,
    /// files 0600, fsynced); returns how many. A missing directory holds none.
    private func copyKeySlots() throws -> Int {
        guard let keySlots else { return 0 }
        let names = try DirectoryListing.names(in: keySlots).filter { $0.hasSuffix(".slot") }.sorted()
        guard !names.isEmpty else { return 0 }
        try OwnedDirectory.prepare(layout.keySlots, isPrivate: true)
        for name in names {
            let fd = try FileDescriptor.open(keySlots + "/" + name, flags: O_RDONLY)
            defer { fd.close() }
            try DurableFile.replace(layout.keySlots + "/" + name, with: try fd.read(at: 0, count: try fd.size()), syncDirectory: false)
        }
        try DurableFile.syncDirectory(layout.keySlots)
        return names.count
    }

    /// The batch `stored` (as the damaged store holds it) sealed again at `place`: its
    /// header's table opened and each frame opened at the batch's old place, then the
    /// plaintext batch sealed for the new one. Its length does not change.
    private static func resealed(_ batch: RecoverScan.SoundBatch, _ stored: [UInt8], at place: BatchPlace) throws -> [UInt8] {
        guard let old = batch.place else { throw HealthLogError(.corrupt, "\(batch.path): the batch at byte \(batch.offset) is not sealed") }
        let sealed = try batch.header(in: stored)
        var header = sealed
        header.flags &= ~FormatConstants.flagSealed
        var frames: [UInt8] = []
        var at = stored.count - sealed.framesLength
        for (index, group) in sealed.groups.enumerated() {
            var unit = Array(stored[at..<at + Int(group.frameLength)])
            at += Int(group.frameLength)
            guard let frame = unit.withUnsafeMutableBytes({ old.openGroup(index, group, in: $0) }) else {
                throw HealthLogError(.corrupt, "\(batch.path): a frame of the batch at byte \(batch.offset) no longer opens (changed while recovering)")
            }
            header.groups[index].frameLength = UInt32(frame.count)
            header.groups[index].frameCRC = CRC32C.checksum(unit[frame])
            frames += unit[frame]
        }
        return header.sealed(header.encoded() + frames, at: place).bytes
    }

    /// The bytes of `batch`, read again from the damaged store's file (verbatim, or with
    /// its header frame encoded anew when the plan changed the header). What is read is
    /// checked again when the new store is verified.
    private static func bytes(of batch: RecoverScan.SoundBatch, from fd: FileDescriptor) throws -> [UInt8] {
        let stored = try stored(batch, from: fd)
        guard batch.isHeaderRewritten else { return stored }
        let header = try batch.header(in: stored)
        return header.encoded() + stored[(stored.count - header.framesLength)...]
    }

    /// The bytes of `batch` as the damaged store's file holds them.
    private static func stored(_ batch: RecoverScan.SoundBatch, from fd: FileDescriptor) throws -> [UInt8] {
        let stored = try fd.read(at: batch.offset, count: batch.length)
        guard stored.count == batch.length else {
            throw HealthLogError(.io, "\(fd.path): ended inside the batch at byte \(batch.offset) while recovering it")
        }
        return stored
    }

    /// Creates the segment that starts at `baseSeq` and writes its prologue.
    private func start(baseSeq: UInt64) throws -> (base: UInt64, fd: FileDescriptor, offset: Int) {
        let fd = try FileDescriptor.createExclusive(layout.segment(baseSeq: baseSeq))
        let prologue = LZ4Frame.emptyFrame + SegmentHeader(storeID: storeID, baseSeq: baseSeq, generation: 0, createdMillis: Clock.nowMillis()).encoded()
        do {
            try fd.write(prologue, at: 0)
        } catch {
            fd.close()
            throw error
        }
        return (baseSeq, fd, prologue.count)
    }
}
