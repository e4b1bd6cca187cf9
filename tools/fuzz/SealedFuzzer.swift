// libFuzzer target for an encrypted store's decoders: the sealed batch header (its fixed
// fields in clear, its table sealed), the sealed unit, a sealed frame opened in place, and
// the key slot file.
// Built by tools/fuzz/run with the library's sources as one module; not part of
// Package.swift.
//
// The input's first byte picks what the rest is (bit 1 picks the cipher: XChaCha20-Poly1305
// when clear, AES-256-GCM when set):
//   - even: a batch header payload in clear, as a plaintext store writes it (the seeds are
//     real ones): its first 48 bytes are taken as the fixed fields (flagged sealed), the
//     rest as the table, which the harness seals under a fixed key at a fixed place, so
//     the table parser behind the seal sees the fuzzer's bytes. A header that decodes is
//     encoded and sealed again, and must decode to the same header; decoded with another
//     place, it must not open.
//   - odd: the bytes of a sealed header payload, a unit and a frame as stored (mutations of
//     ciphertext): decoded with the key they would need, as a keyless shell, and opened
//     in place. Nothing forged opens. The same bytes are decoded as a key slot file; one
//     that decodes encodes back to the same bytes.
// Errors thrown are normal outcomes; a trap, a sanitizer report or a failed `check` is a
// finding.

#if canImport(Glibc)
import Glibc
#endif

/// The fixed keys every input is sealed and opened with, one per cipher.
let fuzzCiphers: [StoreCipher] = [UnitCipher.xchacha20Poly1305, .aes256GCM].map { cipher in
    let id = StoreID(text: "F460785D-1F8C-484E-BFDC-9753EF765E33")!
    let key = try! SecretBytes(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 7) }
    return StoreCipher(storeID: id, keys: [0: key], ciphers: [0: cipher], current: 0)
}

/// `payload`, a batch header payload without its trailing checksum, with that checksum.
func sealedWithChecksum(_ payload: [UInt8]) -> [UInt8] {
    var bytes = payload
    withUnsafeBytes(of: CRC32C.checksum(payload[...]).littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let fuzzCipher = fuzzCiphers[Int(data[0] >> 1) & 1]
    let fuzzPlace = BatchPlace(cipher: fuzzCipher, segmentBase: 1, generation: 0, offset: 67)
    if data[0] & 1 == 0 {
        guard bytes.count >= BatchHeader.FixedFields.length else { return 0 }
        var fixed = Array(bytes[0..<BatchHeader.FixedFields.length])
        fixed[6] |= UInt8(FormatConstants.flagSealed & 0xFF)
        let unit = fuzzCipher.seal(Array(bytes[BatchHeader.FixedFields.length...]), .batchTable, place: fuzzPlace.tableBytes(fixedFields: fixed))
        let payload = sealedWithChecksum(fixed + unit + [0, 0, 0, 0])
        guard let header = try? BatchHeader.decode(payload: payload, place: fuzzPlace) else { return 0 }
        check(header.isSealed, "a sealed header decodes as sealed")
        let again = Array(header.encoded(sealingAt: fuzzPlace).dropFirst(8))
        let decoded = try? BatchHeader.decode(payload: again, place: fuzzPlace)
        check(decoded == header, "a decoded sealed header encodes and decodes to itself")
        let elsewhere = BatchPlace(cipher: fuzzCipher, segmentBase: 1, generation: 0, offset: 68)
        check((try? BatchHeader.decode(payload: again, place: elsewhere)) == nil, "a sealed table opens only at its place")
        let shell = try? BatchHeader.decode(payload: again, shell: true)
        check(shell?.groups.isEmpty == true && shell?.lastSeq == header.lastSeq, "a keyless reader sees the fixed fields only")
    } else {
        _ = try? BatchHeader.decode(payload: bytes, place: fuzzPlace)
        _ = try? BatchHeader.decode(payload: bytes, shell: true)
        check(fuzzCipher.open(bytes, .groupFrame, place: []) == nil, "a forged unit does not open")
        var unit = bytes
        let opened = unit.withUnsafeMutableBytes { fuzzCipher.openInPlace($0, .batchTable, place: []) }
        check(opened == nil, "a forged unit does not open in place")
        if bytes.count >= 10, let slot = try? KeySlot.decode(bytes, id: UInt16(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt16.self) })) {
            check(slot.encoded() == bytes, "a key slot that decodes encodes back to its bytes")
        }
    }
    return 0
}
