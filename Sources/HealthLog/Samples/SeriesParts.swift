internal import CSodium

/// A long series sample (a workout route, an electrocardiogram) stored as several linked
/// lines, its *parts*, so that no stored line nears the 16 MiB limit whatever the series'
/// length. Every part is a whole sample line of the series' type with the series' dates,
/// source, device and metadata and a run of its points (or voltages), in order; the
/// metadata adds ``partKey`` (the part's index from 0) and, from part 1 on, ``seriesKey``
/// (the UUID of part 0, the *head*, which is the series' UUID). Part *i* ≥ 1 has the UUID
/// ``partUUID(series:index:)``, derived from the head's, so a reader or a delete finds the
/// parts of a head by UUID. A series short enough for one line has no part keys at all.
///
/// Readers join the parts back: a query's result gives one ``WorkoutRouteSample`` or
/// ``ElectrocardiogramSample`` per series (``QueryResult``), the analysis exports one row
/// (``EventTable/rowCells(_:)``), and ``HealthStore/delete(_:)-([SampleUUID])`` of a head
/// deletes every part. ``HealthStore/save(_:)`` stores a long series in parts too.
package enum SeriesParts {
    /// The metadata key of a part's index, a number: 0 for the head.
    package static let partKey = "HealthLogSeriesPart"
    /// The metadata key of the series' UUID (its head's), on every part after the head.
    package static let seriesKey = "HealthLogSeries"
    /// The route points a part holds at most: a line of about 1.3 MB.
    package static let pointsPerPart = 10_000
    /// The voltages a part holds at most: a line of about 1 MB.
    package static let voltagesPerPart = 100_000

    /// The UUID of part `index` (from 1) of the series whose head has `series`: the first
    /// 128 bits of SHA-256 of `healthlog series part v1`, a newline, the head's 16 bytes
    /// and the index (u32, big-endian), with RFC 9562's version 8 and variant bits set.
    package static func partUUID(series: SampleUUID, index: Int) -> SampleUUID {
        var input = Array("healthlog series part v1\n".utf8)
        for shift in stride(from: 56, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: series.high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: series.low >> UInt64(shift))) }
        for shift in stride(from: 24, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: UInt32(index) >> UInt32(shift))) }
        _ = sodium_init()
        var digest = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256(&digest, input, UInt64(input.count))
        var high: UInt64 = 0
        var low: UInt64 = 0
        for k in 0..<8 {
            high = high << 8 | UInt64(digest[k])
            low = low << 8 | UInt64(digest[8 + k])
        }
        return SampleUUID(high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_8000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// Where a sample with `metadata` stands in a series: its part index and, after the
    /// head, the series' UUID; `nil` for a sample stored whole.
    package static func place(in metadata: [String: MetadataValue]) -> (index: Int, series: SampleUUID?)? {
        guard case .number(let number)? = metadata[partKey], number >= 0, number < Double(Int32.max), number.rounded() == number else { return nil }
        let index = Int(number)
        guard index > 0 else { return (0, nil) }
        guard case .string(let text)? = metadata[seriesKey], let series = SampleUUID(text) else { return nil }
        return (index, series)
    }

    /// Whether `type` is stored in parts when long: a workout route or an electrocardiogram.
    package static func isSeries(_ type: SampleType) -> Bool {
        type == WorkoutRouteSample.type || type == ElectrocardiogramSample.type
    }

    /// `sample` as the samples of its parts, head first, when it is a route or an
    /// electrocardiogram longer than one part (and not itself a part); else `sample` alone.
    static func parts(of sample: any Sample) -> [any Sample] {
        guard place(in: sample.metadata) == nil, sample.metadata[partKey] == nil else { return [sample] }
        func fields(_ index: Int) -> SampleFields {
            var fields = sample.fields
            fields.metadata[partKey] = .number(Double(index))
            if index > 0 {
                fields.uuid = partUUID(series: sample.uuid, index: index)
                fields.metadata[seriesKey] = .string(sample.uuid.description)
            }
            return fields
        }
        if let route = sample as? WorkoutRouteSample, route.locations.count > pointsPerPart {
            return stride(from: 0, to: route.locations.count, by: pointsPerPart).enumerated().map { index, from in
                WorkoutRouteSample(
                    workout: route.workout, locations: Array(route.locations[from..<min(from + pointsPerPart, route.locations.count)]), fields: fields(index))
            }
        }
        if let ecg = sample as? ElectrocardiogramSample, ecg.voltages.count > voltagesPerPart {
            return stride(from: 0, to: ecg.voltages.count, by: voltagesPerPart).enumerated().map { index, from in
                ElectrocardiogramSample(
                    classification: ecg.classification, voltageUnit: ecg.voltageUnit,
                    voltages: Array(ecg.voltages[from..<min(from + voltagesPerPart, ecg.voltages.count)]), fields: fields(index))
            }
        }
        return [sample]
    }
}
