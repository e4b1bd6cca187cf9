import CByteSearch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many live samples one source wrote from one device (what `report` lists).
package struct SourceTally: Sendable, Hashable {
    /// The source's name (empty when the samples have none).
    package var source: String
    /// The device's text as stored (empty when the samples have none).
    package var device: String
    /// Live samples.
    package var samples: Int
}

/// Sources and devices.
extension HealthStore {
    /// The live samples matching `predicate`, counted by source and device, most samples
    /// first. Reads each line's source and device only (runs of one source and device cost a
    /// byte comparison per line).
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store;
    ///   ``HealthLogError/Code/corrupt`` for damage.
    package func sourceTallies(predicate: QueryPredicate = .all) throws -> [SourceTally] {
        var counts: [SourceKey: Int] = [:]
        var reader = StoredLineView.SummaryReader()
        var device = DeviceText()
        var current: (source: Int, device: Int, key: SourceKey)?
        var run = 0
        _ = try Replayer(snapshot: try LogSnapshot(layout), request: ReplayRequest(predicate: predicate)).run { line in
            guard !line.isDelete else { return }
            guard let fields = reader.fields(line.bytes) else {
                throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
            }
            let deviceSerial = device.read(line.bytes)
            if let c = current, c.source == fields.source, c.device == deviceSerial {
                run += 1
                return
            }
            if let c = current { counts[c.key, default: 0] += run }
            current = (fields.source, deviceSerial, SourceKey(source: fields.source == 0 ? "" : reader.sourceText, device: deviceSerial == 0 ? "" : device.text))
            run = 1
        }
        if let c = current { counts[c.key, default: 0] += run }
        return counts.map { SourceTally(source: $0.key.source, device: $0.key.device, samples: $0.value) }
            .sorted { ($0.samples, $1.source, $1.device) > ($1.samples, $0.source, $0.device) }
    }
}

/// A source and device pair, as tallied.
private struct SourceKey: Hashable {
    var source: String
    var device: String
}

/// The `device` field of stored lines, remembered from one line to the next: a line whose
/// device bytes are the last line's keeps its number without decoding.
private struct DeviceText {
    private var bytes: [UInt8] = []
    /// The device of the last line read that had one.
    private(set) var text = ""
    private var serial = 0

    /// The number of `line`'s device text (0 for none), its text then in ``text``.
    mutating func read(_ line: UnsafeRawBufferPointer) -> Int {
        let key: StaticString = #","device":""#
        guard let base = line.baseAddress, let hit = healthlog_memmem(base, line.count, key.utf8Start, key.utf8CodeUnitCount) else { return 0 }
        let quote = base.distance(to: hit) + key.utf8CodeUnitCount - 1
        let length = StoredLineView.SummaryReader.tokenLength(line, quote)
        guard quote + length <= line.count, length >= 2 else { return 0 }
        let body = UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<(quote + length - 1)])
        if serial > 0, body.count == bytes.count, body.isEmpty || bytes.withUnsafeBytes({ memcmp($0.baseAddress!, body.baseAddress!, body.count) == 0 }) { return serial }
        bytes = Array(body)
        text = body.contains(92) ? JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[quote..<(quote + length)])) : String(decoding: body, as: UTF8.self)
        serial += 1
        return serial
    }
}
