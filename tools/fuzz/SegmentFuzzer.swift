// libFuzzer target for the read side of the store: segment files (and the derived files
// next to them) as LogSnapshot, the replayer, the index readers, `stats` and `verify` read
// them. Built by tools/fuzz/run together with the library's sources as one module (so
// internal APIs are reachable); not part of Package.swift.
//
// The input. Mainly the bytes of one segment file: the seed corpus holds real segments
// written by `healthlog append`. The harness keeps one store directory for the whole run
// (under /dev/shm when it exists, else $TMPDIR or /tmp; HEALTHLOG_FUZZ_DIR overrides;
// HEALTHLOG_FUZZ_KEEP=1 keeps it at exit, holding the files of the last input run),
// whose `meta` names the fixed store identity below; tools/fuzz/run writes the same
// identity into the stores it builds the seeds from, so the seeds' headers and tags match
// this store. Two extensions, both found by markers, so a plain segment file is a valid
// input:
//   - Several segments: wherever a segment prologue (the 11-byte empty LZ4 frame followed
//     by a segment header frame) starts further on, the input is cut into another segment
//     file (up to 4), named by the base sequence number its header claims.
//   - Other store files: from the first `HLIX`, `HLUR`, `HLSY` or `HLCP` tag followed by
//     format version 1 (`01 00`) on, the input is cut at each such marker into a segment
//     sidecar index (`segments/<base>.<gen>.idx`, named by its header), a UUID-index run
//     (`uuids/<from>-<to>.run`, named by its header), the sync table (`uuids/sync`) or the
//     `checkpoint`. The seeds carry the files the CLI wrote, appended to the segments.
//
// Checksums: random mutations almost never keep a CRC-32C right, which would keep the
// fuzzer in front of the first header. So the store is read with the bytes after
// `fixSegment` / `fixSidecar` have recomputed every CRC-32C the readers check (segment
// header, batch header, group frames; the other files' header, body, block-table and
// block CRCs) wherever the structure can be followed; LZ4's own checksums and every
// other field are left alone. The input as it is is read too when nothing needed fixing,
// and for one input in 16 otherwise (chosen by the input's CRC-32C, so runs are
// reproducible), which keeps the checksum-mismatch and torn-tail-versus-damage paths
// covered at little cost.
//
// Per run: LogSnapshot (sidecar indexes used); a raw and a HealthKit-view replay from the
// beginning (lines in strictly ascending sequence order within 1...head, each with its
// newline, the next anchor its last line); a page of a replay with a limit; a one-type
// replay from a middle anchor given as a token; LoggedUUIDs (the writer's look-up of an
// old add); SyncTable.load; StoreStats; each UUID run's look-up and full read; Verifier. When
// Verifier finds the store sound, the raw replay must have delivered exactly 1...head.
// Errors thrown are normal outcomes; a trap, a sanitizer report, a failed `check`, or
// libFuzzer's -malloc_limit_mb / -rss_limit_mb is a finding. Writers are not exercised
// (UUIDRunSet and the torn-tail cut rewrite files).

#if canImport(Glibc)
import Glibc
#endif

/// The identity of the fuzzing store; tools/fuzz/run builds the seed stores with it.
let fuzzStoreID = "F460785D-1F8C-484E-BFDC-9753EF765E33"

// MARK: - The store directory

/// The store directory, made once per process and removed at exit.
final class FuzzStore: @unchecked Sendable {
    let directory: String
    let layout: StoreLayout
    /// Files written for the previous input (relative paths), to remove those the next lacks.
    var written: Set<String> = []

    init() {
        let env = getenv("HEALTHLOG_FUZZ_DIR").map { String(cString: $0) }
        let base = env ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"))
        var template = Array("\(base)/healthlog-fuzz-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            fatalError("SegmentFuzzer: cannot create a directory under \(base)")
        }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        layout = StoreLayout(directory: directory)
        mkdir(layout.segments, 0o700)
        mkdir(directory + "/uuids", 0o700)
        Self.writeFile(Array("healthlog-store\nformat 1\nid \(fuzzStoreID)\n".utf8), to: layout.meta)
        // libFuzzer ends through exit(), which runs atexit handlers (not after a crash).
        // HEALTHLOG_FUZZ_KEEP=1 keeps the directory, to look at an input's files with the CLI.
        if getenv("HEALTHLOG_FUZZ_KEEP") != nil {
            let note = Array("SegmentFuzzer: store directory \(directory) (kept)\n".utf8)
            _ = note.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            return
        }
        fuzzDirectoryToRemove = strdup(directory)
        atexit {
            if let dir = fuzzDirectoryToRemove { removeTree(String(cString: dir)) }
        }
    }

    static func writeFile(_ bytes: some Collection<UInt8>, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("SegmentFuzzer: cannot write \(path)") }
        let array = Array(bytes)
        var done = 0
        array.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                guard n > 0 else { fatalError("SegmentFuzzer: cannot write \(path)") }
                done += n
            }
        }
        close(fd)
    }

    /// Writes this input's files (relative path → bytes) and removes the previous input's others.
    func install(_ files: [(path: String, bytes: ArraySlice<UInt8>)]) {
        for file in files { Self.writeFile(file.bytes, to: directory + "/" + file.path) }
        let paths = Set(files.map(\.path))
        for old in written where !paths.contains(old) { unlink(directory + "/" + old) }
        written = paths
    }
}

nonisolated(unsafe) var fuzzDirectoryToRemove: UnsafeMutablePointer<CChar>?
let fuzzStore = FuzzStore()

// MARK: - Cutting the input into files

@inline(__always) func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
@inline(__always) func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }
@inline(__always) func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32 }
func put32(_ b: inout [UInt8], _ at: Int, _ value: UInt32) {
    for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
}
func crc(_ b: [UInt8], _ range: Range<Int>) -> UInt32 { CRC32C.checksum(b[range]) }

let emptyFrame = LZ4Frame.emptyFrame
let prologueLength = emptyFrame.count + 8 + FormatConstants.segmentHeaderPayloadLength

/// The kinds of derived file a marker starts.
enum Sidecar: CaseIterable {
    case segmentIndex, uuidRun, syncTable, checkpoint

    var tag: [UInt8] {
        switch self {
        case .segmentIndex: SegmentIndex.tag
        case .uuidRun: UUIDRun.tag
        case .syncTable: SyncTable.tag
        case .checkpoint: FormatConstants.checkpointTag
        }
    }
}

/// A piece of the input that becomes one file.
struct Piece {
    enum Kind { case segment, sidecar(Sidecar) }
    var kind: Kind
    var range: Range<Int>
}

/// Every offset at or after `from` where `pattern` starts (at most `limit`), found with
/// memchr on its first byte (libc is not instrumented, so this stays cheap).
func occurrences(of pattern: [UInt8], in b: [UInt8], from: Int, limit: Int) -> [Int] {
    var found: [Int] = []
    b.withUnsafeBytes { raw in
        var at = from
        while at + pattern.count <= raw.count, found.count < limit {
            guard let hit = memchr(raw.baseAddress! + at, Int32(pattern[0]), raw.count - at - pattern.count + 1) else { break }
            at = raw.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if memcmp(raw.baseAddress! + at, pattern, pattern.count) == 0 {
                found.append(at)
                at += pattern.count
            } else {
                at += 1
            }
        }
    }
    return found
}

/// Cuts the input into segments and derived files (see the file comment).
func pieces(_ b: [UInt8]) -> [Piece] {
    var markers: [(at: Int, kind: Sidecar)] = []
    for kind in Sidecar.allCases {
        for at in occurrences(of: kind.tag + [1, 0], in: b, from: prologueLength, limit: 8) { markers.append((at, kind)) }
    }
    markers.sort { $0.at < $1.at }
    markers = Array(markers.prefix(8))
    let segmentEnd = markers.first?.at ?? b.count
    var starts = [0]
    for at in occurrences(of: emptyFrame, in: b, from: prologueLength, limit: 3) where at + prologueLength <= segmentEnd {
        if u32(b, at + emptyFrame.count) == Int(FormatConstants.segmentHeaderMagic), at >= starts.last! + prologueLength {
            starts.append(at)
        }
    }
    var result: [Piece] = []
    for (k, start) in starts.enumerated() {
        result.append(Piece(kind: .segment, range: start..<(k + 1 < starts.count ? starts[k + 1] : segmentEnd)))
    }
    for (k, marker) in markers.enumerated() {
        result.append(Piece(kind: .sidecar(marker.kind), range: marker.at..<(k + 1 < markers.count ? markers[k + 1].at : b.count)))
    }
    return result
}

/// The files of `pieces` over `b`: relative path and bytes.
func files(_ b: [UInt8], _ pieces: [Piece]) -> [(path: String, bytes: ArraySlice<UInt8>)] {
    var out: [(path: String, bytes: ArraySlice<UInt8>)] = []
    var first = true
    for piece in pieces {
        let r = piece.range
        let path: String
        switch piece.kind {
        case .segment:
            // The first segment is always 1; later ones are named by the base their header claims.
            let base = first ? 1 : u64(b, r.lowerBound + emptyFrame.count + 8 + 24)
            first = false
            path = "segments/" + SegmentName(baseSeq: base, generation: 0).fileName
        case .sidecar(.segmentIndex):
            guard r.count >= 20 else { continue }
            let name = SegmentName(baseSeq: u64(b, r.lowerBound + 8), generation: UInt32(u32(b, r.lowerBound + 16)))
            path = "segments/" + String(name.fileName.dropLast(".log.lz4".count)) + ".idx"
        case .sidecar(.uuidRun):
            guard r.count >= 24 else { continue }
            path = "uuids/" + UUIDRun.fileName(from: u64(b, r.lowerBound + 8), to: u64(b, r.lowerBound + 16))
        case .sidecar(.syncTable):
            path = "uuids/sync"
        case .sidecar(.checkpoint):
            path = "checkpoint"
        }
        // A second piece for the same file (a repeated name) is dropped.
        if !out.contains(where: { $0.path == path }) { out.append((path, b[r])) }
    }
    return out
}

// MARK: - Recomputing checksums

/// Recomputes, in place, the CRC-32Cs of the segment `b[r]` wherever the structure can be
/// followed: the segment header's, each batch header's, and each group frame's (into its
/// header entry, before the header's own).
func fixSegment(_ b: inout [UInt8], _ r: Range<Int>) {
    let h = r.lowerBound + emptyFrame.count
    let end = r.upperBound
    guard r.count >= prologueLength, u32(b, h) == Int(FormatConstants.segmentHeaderMagic) else { return }
    if u32(b, h + 4) == FormatConstants.segmentHeaderPayloadLength {
        put32(&b, h + 8 + 44, crc(b, h + 8..<h + 8 + 44))
    }
    var offset = r.lowerBound + prologueLength
    while offset + 8 <= end, u32(b, offset) == Int(FormatConstants.batchHeaderMagic) {
        let length = u32(b, offset + 4)
        let p = offset + 8
        guard length >= 52, length <= end - p else { break }
        var entry = p + 48
        var frame = p + length
        var ok = true
        for _ in 0..<u16(b, p + 44) {
            guard entry + 4 <= p + length - 4 else { ok = false; break }
            let fields = entry + 4 + u16(b, entry + 2)
            guard fields + 48 <= p + length - 4 else { ok = false; break }
            let frameLength = u32(b, fields + 36)
            if frameLength <= end - frame {
                put32(&b, fields + 44, crc(b, frame..<frame + frameLength))
                frame += frameLength
            } else {
                ok = false
            }
            entry = fields + 48
        }
        put32(&b, p + length - 4, crc(b, p..<p + length - 4))
        guard ok else { break }
        offset = frame
    }
}

/// Recomputes the checksums of a derived file `b[r]` (layouts in SegmentIndex.swift,
/// UUIDRun.swift, SyncTable.swift).
func fixSidecar(_ b: inout [UInt8], _ r: Range<Int>, _ kind: Sidecar) {
    let s = r.lowerBound
    switch kind {
    case .segmentIndex:  // 76-byte header: body CRC at 68 (over 76…), header CRC at 72 (over 0..<72)
        guard r.count >= 76 else { return }
        put32(&b, s + 68, crc(b, s + 76..<r.upperBound))
        put32(&b, s + 72, crc(b, s..<s + 72))
    case .uuidRun:  // 48-byte header, block table of 20-byte rows (first UUID, block CRC), 32-byte entries
        guard r.count >= 48 else { return }
        let count = Int(min(u64(b, s + 24), 1 << 20))
        let blocks = min(u32(b, s + 32), (r.count - 48) / 20)
        let entries = s + 48 + u32(b, s + 32) * 20
        for block in 0..<blocks {
            let first = entries + block * UUIDRun.blockEntries * UUIDRun.entryLength
            let last = entries + min(count, (block + 1) * UUIDRun.blockEntries) * UUIDRun.entryLength
            if first <= last, last <= r.upperBound { put32(&b, s + 48 + block * 20 + 16, crc(b, first..<last)) }
        }
        put32(&b, s + 36, crc(b, s + 48..<s + 48 + blocks * 20))
        put32(&b, s + 40, crc(b, s..<s + 40))
    case .syncTable:  // 28-byte header: body CRC at 20 (over 28…), header CRC at 24 (over 0..<24)
        guard r.count >= 28 else { return }
        put32(&b, s + 20, crc(b, s + 28..<r.upperBound))
        put32(&b, s + 24, crc(b, s..<s + 24))
    case .checkpoint:  // 36 bytes: CRC at 32 over 0..<32
        guard r.count >= 36 else { return }
        put32(&b, s + 32, crc(b, s..<s + 32))
    }
}

// MARK: - Reading the store

/// The sequence numbers of the lines a replay delivers, checked as they come.
func replaySeqs(_ snapshot: LogSnapshot, _ request: ReplayRequest) -> (seqs: [UInt64], outcome: ReplayOutcome)? {
    var seqs: [UInt64] = []
    let outcome: ReplayOutcome
    do {
        outcome = try Replayer(snapshot: snapshot, request: request).run { replayed in
            let line = replayed.bytes
            check(line.count >= 9 && line.last == 10, "replay delivered a line without its newline")
            var at = 7
            var seq: UInt64 = 0
            while at < line.count, line[at] >= 48, line[at] <= 57, seq < UInt64.max / 10 {
                seq = seq * 10 + UInt64(line[at] - 48)
                at += 1
            }
            seqs.append(seq)
        }
    } catch {
        return nil
    }
    let anchor = request.anchor.seq
    check(outcome.delivered == seqs.count, "replay says it delivered \(outcome.delivered) lines, delivered \(seqs.count)")
    check(request.limit == 0 || seqs.count <= request.limit, "replay delivered \(seqs.count) lines past its limit \(request.limit)")
    var previous = anchor
    for seq in seqs {
        check(seq > previous, "replay (raw: \(request.raw), from \(anchor)) delivered seq \(seq) after \(previous)")
        check(seq <= snapshot.headSeq, "replay delivered seq \(seq) past the head \(snapshot.headSeq)")
        previous = seq
    }
    check(outcome.newAnchor.seq == (seqs.last ?? anchor), "replay's next anchor \(outcome.newAnchor.seq) is not its last line")
    return (seqs, outcome)
}

func exercise() {
    let layout = fuzzStore.layout
    var rawSeqs: [UInt64]?
    var head: UInt64 = 0
    if let snapshot = try? LogSnapshot(layout) {
        head = snapshot.headSeq
        let batches = (try? snapshot.allBatches()) ?? []
        var expected: UInt64 = 1
        for batch in batches {
            check(batch.header.firstSeq == expected && batch.header.lastSeq >= batch.header.firstSeq, "snapshot batches are not contiguous")
            expected = batch.header.lastSeq &+ 1
        }
        rawSeqs = replaySeqs(snapshot, ReplayRequest(raw: true))?.seqs
        if let view = replaySeqs(snapshot, ReplayRequest()), let rawSeqs {
            check(Set(view.seqs).isSubset(of: rawSeqs), "HealthKit view delivered a seq the raw log lacks")
        }
        // A page: a limit, and its next anchor past the beginning when it is full.
        let limit = max(1, Int(min(head, 1 << 20)) / 3)
        if let page = replaySeqs(snapshot, ReplayRequest(limit: limit)), page.seqs.count == limit {
            check(page.outcome.newAnchor.seq > 0, "a full page did not move the anchor")
        }
        // One type, from the middle, by token.
        if let type = batches.first?.header.groups.first?.type {
            let middle = QueryAnchor(seq: head / 2, storeTag: snapshot.meta.storeID.tag)
            if let again = try? QueryAnchor(token: middle.token) {
                _ = replaySeqs(snapshot, ReplayRequest(anchor: again, types: [type], limit: 0))
            }
        }
        // What a writer reads: an old add by sequence number, the sync table.
        let stored = LoggedUUIDs(snapshot)
        if head > 0, let line = try? stored.addLine(seq: head / 2 + 1) { check(!line.isEmpty, "LoggedUUIDs returned an empty add line") }
        _ = try? SyncTable.load(layout, snapshot: snapshot)
        // `stats`, rendered as the command prints it.
        for type in (try? StoreStats(snapshot))?.types ?? [] { _ = type.first.description + type.last.description }
    }
    // The UUID-index runs, as a writer's look-up and a merge read them.
    for path in fuzzStore.written where path.hasPrefix("uuids/") && path.hasSuffix(".run") {
        if let run = UUIDRun(path: fuzzStore.directory + "/" + path) {
            _ = try? run.lookup(SampleUUID(high: 0x0D4A_1F9C_5E3B_4C61, low: 0x9B57_2A1E_4F8C_7D10))
            // What a merge reads: the entries a block at a time, each block checked.
            if var cursor = try? UUIDRun.BlockCursor(run) {
                while cursor.current != nil, (try? cursor.advance()) != nil {}
                cursor.close()
            }
        }
    }
    if let report = try? Verifier(layout: layout).run(), report.isSound {
        guard let rawSeqs else {
            check(false, "verify finds the store sound but a raw replay fails")
            return
        }
        check(report.events == head, "verify counts \(report.events) events, the snapshot \(head)")
        check(rawSeqs.count == Int(head) && rawSeqs.last == (head == 0 ? nil : head),
            "verify finds the store sound but a raw replay delivers \(rawSeqs.count) lines for head \(head)")
    }
}

func run(_ bytes: [UInt8], _ pieces: [Piece]) {
    fuzzStore.install(files(bytes, pieces))
    exercise()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = pieces(input)
    var fixed = input
    for piece in parts {
        switch piece.kind {
        case .segment: fixSegment(&fixed, piece.range)
        case .sidecar(let kind): fixSidecar(&fixed, piece.range, kind)
        }
    }
    let changed = fixed != input
    // The input as it is: always when no checksum needed fixing, else for one input in 16
    // (chosen by the input's own CRC, so a run is reproducible) to keep the mismatch paths.
    if !changed || CRC32C.checksum(input[...]) & 15 == 0 { run(input, parts) }
    if changed { run(fixed, parts) }
    return 0
}
