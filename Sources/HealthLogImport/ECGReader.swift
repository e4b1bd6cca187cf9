import HealthLog

/// Reads an electrocardiogram CSV of an Apple Health export (`electrocardiograms/ecg_….csv`)
/// as a stream: a header of `key,value` lines (`Recorded Date` in the export's date format,
/// `Classification`, `Symptoms`, `Software Version`, `Device` quoted for its comma,
/// `Sample Rate` as `512 hertz`, `Lead`, `Unit`), blank lines, then one voltage a line,
/// with the decimal separator of the phone's locale (`-265,868` is −265.868).
enum ECGReader {
    /// The header keys that become fields; every other key is kept in metadata under the
    /// import's prefix, as written.
    private static let fieldKeys: Set<String> = ["Recorded Date", "Classification", "Symptoms", "Software Version", "Device", "Sample Rate", "Lead", "Unit"]

    /// The electrocardiogram in `source` as a sample draft, and how many voltages it holds.
    /// It starts at the recorded date and ends when its voltages do (their count over the
    /// sample rate, to the millisecond). Every `partLimit` voltages (``SeriesParts/voltagesPerPart``
    /// for one stored in parts) are handed to `part` as a JSON array once the next voltage
    /// comes, and are not kept: the draft's `voltages` are those after the last part.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming the file and line when the header
    ///   has no recorded date or a line is neither a header line nor a voltage; whatever
    ///   `part` throws.
    static func draft(
        _ source: any ExportByteSource, partLimit: Int = .max, part: ([UInt8]) throws -> Void = { _ in }
    ) throws -> (draft: SampleDraft, voltages: Int) {
        let name = source.documentName
        var header: [(key: String, value: String)] = []
        var voltages: [UInt8] = [0x5B]
        var count = 0
        var inHeader = true
        var lineNumber = 0
        try forEachLine(source) { line in
            lineNumber += 1
            let text = line.withoutBlanks
            if text.isEmpty { return }
            if inHeader, let pair = headerPair(text), Double(decimal(text) ?? "x") == nil {
                header.append(pair)
                return
            }
            inHeader = false
            guard let number = decimal(text).flatMap(ExportMapper.number) else {
                throw HealthLogError(.badInput, "\(name): line \(lineNumber): '\(text.prefix(40))' is not a voltage")
            }
            if count > 0, count % partLimit == 0 {
                voltages.append(0x5D)
                try part(voltages)
                voltages = [0x5B]
            } else if count > 0 {
                voltages.append(0x2C)
            }
            voltages += Array(number.utf8)
            count += 1
        }
        voltages.append(0x5D)
        func value(_ key: String) -> String? { header.first(where: { $0.key == key })?.value }
        guard let recorded = value("Recorded Date").flatMap(ExportDateFormat.instant) ?? header.lazy.compactMap({ ExportDateFormat.instant($0.value) }).first else {
            throw HealthLogError(.badInput, "\(name): the header has no recorded date in the export's format: not an electrocardiogram")
        }
        let hertz = value("Sample Rate").flatMap { rate in decimal(String(rate.prefix(while: { $0 != " " }))) }.flatMap(ExportMapper.number)
        var end = recorded
        if let hertz, let rate = Double(hertz), rate > 0, count > 0 {
            let t = recorded.instant
            let instant = Timestamp(
                microseconds: t.microseconds + Int64((Double(count) / rate * 1000).rounded()) * 1000, offsetMinutes: t.offsetMinutes, isZulu: t.isZulu,
                fractionDigits: 3)
            end = ExportInstant(iso: instant.description, instant: instant)
        }
        var draft = SampleDraft(type: ElectrocardiogramSample.type.identifier, start: recorded, end: end)
        if let classification = value("Classification"), !classification.isEmpty { draft.value = JSONText.string(classification) }
        draft.unit = value("Unit").flatMap { $0.isEmpty ? nil : $0 }
        draft.device = value("Device").flatMap { $0.isEmpty ? nil : $0 }
        draft.sourceVersion = value("Software Version").flatMap { $0.isEmpty ? nil : $0 }
        if let hertz { draft.addMetadata(ElectrocardiogramSample.Key.samplingFrequency, json: hertz) }
        if let symptoms = value("Symptoms"), !symptoms.isEmpty { draft.addMetadata(ElectrocardiogramSample.Key.symptoms, json: JSONText.string(symptoms)) }
        if let lead = value("Lead"), !lead.isEmpty { draft.addMetadata(ElectrocardiogramSample.Key.lead, json: JSONText.string(lead)) }
        for (key, text) in header where !fieldKeys.contains(key) {
            if key.localizedHeartRate, let bpm = decimal(String(text.prefix(while: { $0 != " " }))).flatMap(ExportMapper.number) {
                draft.addMetadata(ElectrocardiogramSample.Key.averageHeartRate, json: bpm)
            } else {
                draft.addMetadata(SampleDraft.keyPrefix + key, json: JSONText.string(text))
            }
        }
        draft.voltages = voltages
        return (draft, count)
    }

    /// A header line `key,value` (the value unquoted, `""` inside quotes read as `"`).
    static func headerPair(_ text: String) -> (key: String, value: String)? {
        guard let comma = text.firstIndex(of: ",") else { return nil }
        let name = String(text[..<comma]).withoutBlanks
        var content = String(text[text.index(after: comma)...]).withoutBlanks
        if content.count >= 2, content.first == "\"", content.last == "\"" {
            content = String(content.dropFirst().dropLast()).replacingAll("\"\"", with: "\"")
        }
        guard !name.isEmpty, name.first?.isNumber == false, name.first != "-" else { return nil }
        return (key: name, value: content)
    }

    /// A number written with either decimal separator, as Swift reads it: `-265,868` and
    /// `-265.868` are `-265.868`; when both separators appear, the last is the decimal one
    /// and the other groups thousands. `nil` when it is not a number.
    static func decimal(_ text: String) -> String? {
        let comma = text.lastIndex(of: ",")
        let dot = text.lastIndex(of: ".")
        var spelled = text
        switch (comma, dot) {
        case (let c?, let d?) where c > d: spelled = text.filter { $0 != "." }.replacingAll(",", with: ".")
        case (_?, _?): spelled = text.filter { $0 != "," }
        case (_?, nil): spelled = text.replacingAll(",", with: ".")
        default: break
        }
        guard let value = Double(spelled), value.isFinite else { return nil }
        return spelled
    }

    /// Calls `body` with each line of `source` (without `\n` or `\r\n`), read in chunks.
    private static func forEachLine(_ source: any ExportByteSource, _ body: (String) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            var start = 0
            for k in 0..<n where buffer[k] == 0x0A {
                pending += buffer[start..<k]
                if pending.last == 0x0D { pending.removeLast() }
                try body(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
                start = k + 1
            }
            pending += buffer[start..<n]
            guard pending.count <= 1 << 20 else { throw HealthLogError(.badInput, "\(source.documentName): a line longer than 1 MiB: not an electrocardiogram") }
        }
        if !pending.isEmpty {
            if pending.last == 0x0D { pending.removeLast() }
            try body(String(decoding: pending, as: UTF8.self))
        }
    }
}

extension String {
    /// The string without leading and trailing blanks (spaces, tabs, a byte order mark).
    fileprivate var withoutBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\u{FEFF}", "\r"]
        guard let first = firstIndex(where: { !blanks.contains($0) }), let last = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The string with every `target` replaced by `replacement`.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// Whether a header key names the average heart rate (`Average Heart Rate`, `Heart Rate`).
    fileprivate var localizedHeartRate: Bool { lowercased().contains("heart rate") }
}
