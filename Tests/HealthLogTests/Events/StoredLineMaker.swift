import HealthLogTestSupport
@testable import HealthLog

/// Random stored lines for ``StoredLineDecoderTests``: adds and deletes of every kind in the
/// stored field order, with metadata (sync keys, series part keys, blanks inside the object),
/// Unicode and escapes in strings, numbers of every JSON form, upper- and lower-case UUIDs
/// and dates with offsets and fractions; and some a step away from that form (a blank, a
/// field out of order, a rule broken, a UUID character that is not a hex digit).
enum StoredLineMaker {
    /// A line, and whether it is in the stored form of a kind ``StoredLineDecoder`` reads.
    static func line(_ random: inout SeededRandom) -> (text: String, canonical: Bool) {
        let type = random.pick(types)
        let isDelete = random.chance(20)
        let fastKind = !(type.hasPrefix("HKWorkout") || type.hasPrefix("HKCorrelation") || type == "HKDataTypeIdentifierElectrocardiogram")
        var fields: [(String, String)] = [("type", quoted(type))]
        let (start, end) = instants(&random)
        fields.append(("start", quoted(start)))
        fields.append(("end", quoted(end)))
        if isDelete {
            if random.chance(60) { fields.append(("source", string(&random))) }
            if random.chance(30) { fields.append(("device", string(&random))) }
            if random.chance(30) { fields.append(("metadata", #"{"HKMetadataKeySyncIdentifier":\#(string(&random)),"HKMetadataKeySyncVersion":\#(random.int(0...9))}"#)) }
        } else {
            fields += kindFields(type, &random)
            if random.chance(70) { fields.append(("source", string(&random))) }
            if random.chance(40) { fields.append(("sourceVersion", string(&random))) }
            if random.chance(40) { fields.append(("device", string(&random))) }
            if random.chance(60) { fields.append(("metadata", metadata(type, &random))) }
            fields.sort { order.firstIndex(of: $0.0)! < order.firstIndex(of: $1.0)! }
        }
        var canonical = fastKind || isDelete
        var damagesUUID = false
        if random.chance(10) {
            canonical = false
            switch random.int(0...4) {
            case 0: fields.swapAt(random.int(0...fields.count - 1), random.int(0...fields.count - 1))
            case 1:
                let at = random.int(0...fields.count - 1)
                fields[at].1 = " " + fields[at].1
            case 2: fields.remove(at: random.int(0...fields.count - 1))
            case 3: fields.append(random.pick([("unit", #""count""#), ("value", "1"), ("activity", #""HKWorkoutActivityTypeRunning""#)]))
            default: damagesUUID = true
            }
        }
        var uuid = SampleUUID.random(using: &random).description
        if random.chance(20) { uuid = uuid.lowercased() }
        if damagesUUID {
            // A character next to the hex digits' ranges, or a dash moved.
            var characters = Array(uuid)
            characters[random.int(0...35)] = random.pick(["g", "G", "/", ":", "@", "`", "-", "é", "\u{7F}"])
            uuid = String(characters)
        }
        let body = fields.map { #","\#($0.0)":\#($0.1)"# }.joined()
        let text = #"{"seq":\#(random.int(0...99_999_999)),"op":"\#(isDelete ? "delete" : "add")","uuid":"\#(uuid)""# + body + "}"
        return (text, canonical)
    }

    /// The types drawn from: every kind, the series types among them.
    static let types = [
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierBodyMass",
        "HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryTypeIdentifierMindfulSession",
        "HKCharacteristicTypeIdentifierBiologicalSex", "HKActivitySummaryTypeIdentifier", "HKDataTypeIdentifierStateOfMind",
        "HKWorkoutTypeIdentifier", "HKCorrelationTypeIdentifierBloodPressure", "HKWorkoutRouteTypeIdentifier",
        "HKDataTypeIdentifierElectrocardiogram",
    ]

    /// The stored field order after the UUID.
    static let order = [
        "type", "start", "end", "value", "unit", "source", "sourceVersion", "device", "metadata", "activity", "duration", "totals",
        "objects", "workout", "locations", "voltages",
    ]

    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// Two instants, the end at or after the start, in the forms a line may give them.
    static func instants(_ random: inout SeededRandom) -> (String, String) {
        let base = 1_500_000_000 + random.int(0...200_000_000)
        let zone = random.pick(["Z", "Z", "+01:00", "-05:30", "+0200", "+00:00"])
        let digits = random.pick([0, 0, 3, 1, 6])
        func text(_ seconds: Int, _ micros: Int) -> String {
            let offset = zone == "Z" ? 0 : (zone.hasPrefix("-") ? -1 : 1) * (Int(zone.dropFirst().prefix(2))! * 60 + Int(zone.suffix(2))!)
            var instant = Timestamp(microseconds: Int64(seconds) * 1_000_000 + Int64(micros), offsetMinutes: Int16(offset), isZulu: zone == "Z", fractionDigits: UInt8(digits))
            instant.fractionDigits = UInt8(digits)
            var out: [UInt8] = []
            instant.render(into: &out)
            var rendered = String(decoding: out, as: UTF8.self)
            if zone.count == 5, rendered.count > 6 {
                rendered.remove(at: rendered.index(rendered.endIndex, offsetBy: -3))
            }
            return rendered
        }
        let micros = digits == 0 ? 0 : random.int(0...999_999) / Int(pow10(6 - digits)) * Int(pow10(6 - digits))
        let start = text(base, micros)
        let end = random.chance(50) ? start : text(base + random.int(0...7200), micros)
        return (start, end)
    }

    static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    /// A JSON string token: plain, Unicode, or with escapes of every kind.
    static func string(_ random: inout SeededRandom) -> String {
        quoted(
            random.pick([
                "Apple Watch", "iPhone", "W\u{00E4}tch", #"W\u00e4tch \"2\""#, #"a\\b\/c"#, #"line\nbreak\ttab"#, #"\ud83d\ude00 smile"#,
                "日本語", "count/min", "<<HKDevice>, name:Apple Watch, manufacturer:Apple Inc.>", "",
            ]))
    }

    /// A JSON number in one of its forms (integers, fractions, exponents, a negative zero,
    /// more digits than a double holds).
    static func number(_ random: inout SeededRandom) -> String {
        random.pick([
            "\(random.int(0...250))", "\(random.int(0...999)).\(random.int(0...99))", "72.50", "-0", "0", "-12", "0.1", "1e3", "2.5E-3",
            "123456789012345678", "1234567890123456789012", "3.14159265358979323846", "0.000000000000001", "98.6", "-0.0",
        ])
    }

    /// The value and unit (or other kind's fields) of an add of `type`.
    static func kindFields(_ type: String, _ random: inout SeededRandom) -> [(String, String)] {
        switch type {
        case _ where type.hasPrefix("HKQuantity"):
            return [("value", number(&random)), ("unit", random.pick([#""count/min""#, #""kg""#, #""count""#, string(&random)]))]
        case _ where type.hasPrefix("HKCategory"):
            return [("value", random.chance(50) ? "\(random.int(-1...5))" : random.pick([#""HKCategoryValueSleepAnalysisAsleepCore""#, string(&random), "99999999999999999999", "1234567890123456789", "-9223372036854775808"]))]
        case _ where type.hasPrefix("HKCharacteristic"):
            return [("value", random.chance(50) ? #""HKBiologicalSexFemale""# : number(&random))]
        case "HKWorkoutTypeIdentifier":
            return [("activity", #""HKWorkoutActivityTypeRunning""#), ("duration", "1800"), ("totals", #"{"energy":{"value":250,"unit":"kcal"}}"#)]
        case "HKCorrelationTypeIdentifierBloodPressure":
            return [("objects", #"["0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10"]"#)]
        case "HKWorkoutRouteTypeIdentifier":
            return [("workout", #""0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10""#), ("locations", #"[{"latitude":1,"longitude":2,"timestamp":"2024-03-01T08:00:00Z"}]"#)]
        case "HKDataTypeIdentifierElectrocardiogram":
            return [("value", #""SinusRhythm""#), ("unit", #""mcV""#), ("voltages", "[1.5,-2,3e1]")]
        default:
            return random.chance(50) ? [("value", number(&random)), ("unit", #""kcal""#)] : random.chance(50) ? [("value", string(&random))] : []
        }
    }

    /// A metadata object: keys with string, number and boolean values, sometimes the sync
    /// keys or (for a series type) a part key, sometimes blanks inside.
    static func metadata(_ type: String, _ random: inout SeededRandom) -> String {
        var entries: [String] = []
        for _ in 0..<random.int(0...3) {
            let key = random.pick([#""HKMetadataKeyHeartRateMotionContext""#, #""HKTimeZone""#, #""note""#, #""k\u00e9y""#, #""HKWasUserEntered""#])
            guard !entries.contains(where: { $0.hasPrefix(key) }) else { continue }
            entries.append("\(key):\(random.pick([number(&random), string(&random), "true", "false"]))")
        }
        if random.chance(20) {
            entries.append(#""HKMetadataKeySyncIdentifier":\#(string(&random))"#)
            entries.append(#""HKMetadataKeySyncVersion":\#(random.pick(["1", #""2""#, "30"]))"#)
        }
        if type == "HKWorkoutRouteTypeIdentifier" || type == "HKDataTypeIdentifierElectrocardiogram", random.chance(50) {
            entries.append(#""HealthLogSeriesPart":\#(random.int(0...2))"#)
        }
        return random.chance(15) ? "{ " + entries.joined(separator: " , ") + " }" : "{" + entries.joined(separator: ",") + "}"
    }
}
