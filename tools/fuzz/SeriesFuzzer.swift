// libFuzzer target for the import's readers of the files beside an export's XML: the
// GPX reader (libxml2's reader with text, trkpt points, the cut-short check) and
// the electrocardiogram CSV reader (header, either decimal separator). Built by
// tools/fuzz/run with the library's and the import's sources as one module.
//
// Each input is read by both, from memory. A thrown `badInput` is a normal outcome (not
// GPX, not an ECG). When a reader succeeds:
//   - GPX: the points render to a `locations` array the store's event parser accepts,
//     with as many points as were kept, each with lat/lon within range;
//   - ECG: the sample renders to an event line the store's parser accepts, whose
//     `voltages` hold as many numbers as were read, all finite.
// A trap, a sanitizer report or a failed `check` is a finding.

#if canImport(Glibc)
import Glibc
#endif

/// The input served as an export file's bytes, in pieces of at most 7 bytes so the
/// readers' chunk boundaries are crossed everywhere.
final class MemorySource: ExportByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, 7 + offset % 4093)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
    var bytesConsumed: Int { offset }
    var totalBytes: Int { bytes.count }
    var documentName: String { "fuzz-input" }
    func close() {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var counts: [String: Int] = [:]
    if let points = try? GPXReader.points(MemorySource(bytes), counts: &counts) {
        let array = points.array
        let decoded = array.withUnsafeBytes { LocationsParser.decode($0) }
        check(decoded.count == points.count, "GPX: \(points.count) points kept, \(decoded.count) decode")
        check(decoded.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }, "GPX: a point out of range")
        check(counts["trkpt", default: 0] >= points.count + points.leftOut, "GPX: more points than trkpt elements")
        let day = ExportInstant(iso: "2024-03-01T00:00:00Z", instant: Timestamp(microseconds: 0))
        var draft = SampleDraft(type: WorkoutRouteSample.type.identifier, start: day, end: day)
        draft.locations = array
        let line = draft.render(uuid: draft.contentUUID(LineWorkspace()), marker: Array("true".utf8))
        check((try? line.withUnsafeBytes { try HealthStore.validate(line: $0) }) != nil, "GPX: the route line does not validate")
    }
    if let ecg = try? ECGReader.draft(MemorySource(bytes)) {
        let line = ecg.draft.render(uuid: ecg.draft.contentUUID(LineWorkspace()), marker: Array("true".utf8))
        let event = try? line.withUnsafeBytes { try EventLineParser.parse($0) }
        check(event != nil, "ECG: the line does not parse: \(String(decoding: line.prefix(300), as: UTF8.self))")
        if let range = event?.voltages {
            let voltages = line[range.lowerBound + 1..<range.upperBound - 1].split(separator: 0x2C)
            check(voltages.count == ecg.voltages, "ECG: \(ecg.voltages) voltages read, \(voltages.count) in the line")
            check(voltages.allSatisfy { Double(String(decoding: $0, as: UTF8.self))?.isFinite == true }, "ECG: a voltage is not a finite number")
        } else {
            check(false, "ECG: the line has no voltages")
        }
    }
    return 0
}
