/// The unit, source and `HKTimeZone` texts of the sample a
/// ``StoredLineView/SummaryReader/Fields`` describes by number: kept for the last number of
/// each, which the next sample of the same reader most often repeats, so a text is fetched
/// only when its number changes.
struct SampleTexts {
    /// The unit (empty for none).
    private(set) var unit = ""
    /// The source (empty for none).
    private(set) var source = ""
    /// The `HKTimeZone` metadata, if any.
    private(set) var zone: String?
    private var unitSerial = 0
    private var sourceSerial = 0
    private var zoneSerial = 0

    /// Texts for a reader not yet read from.
    init() {}

    /// Takes the texts of `fields`: each text whose number changed from `unit`, `source` or
    /// `zone` (called only then, with a number that is not 0).
    mutating func take(_ fields: StoredLineView.SummaryReader.Fields, unit: (Int) -> String, source: (Int) -> String, zone: (Int) -> String) {
        if fields.unit != unitSerial {
            unitSerial = fields.unit
            self.unit = fields.unit == 0 ? "" : unit(fields.unit)
        }
        if fields.source != sourceSerial {
            sourceSerial = fields.source
            self.source = fields.source == 0 ? "" : source(fields.source)
        }
        if fields.timeZone != zoneSerial {
            zoneSerial = fields.timeZone
            self.zone = fields.timeZone == 0 ? nil : zone(fields.timeZone)
        }
    }

    /// Takes the texts of `fields`, which `reader` has just read.
    mutating func take(_ fields: StoredLineView.SummaryReader.Fields, from reader: StoredLineView.SummaryReader) {
        take(fields, unit: { _ in reader.unitText }, source: { _ in reader.sourceText }, zone: { _ in reader.timeZoneText })
    }
}
