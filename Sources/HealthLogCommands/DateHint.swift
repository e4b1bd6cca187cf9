import HealthLog

/// Why a date given on the command line does not read, and the accepted form of it: an
/// instant without seconds or without its UTC offset says what is missing and shows the
/// same instant written in full.
enum DateHint {
    /// The message for `option`'s value `text`, which is not a date.
    static func message(_ text: String, _ option: String) -> String {
        "\(option) '\(text)' is not a date: \(reason(text))"
    }

    /// `parse(text)` for an option that takes an anchor as well as a date; when it throws
    /// and `text` starts like a date (`2021-11-…`), the same error (its code, so its exit
    /// code) saying what the date lacks.
    static func anchorOrDate<T>(_ text: String, _ option: String, _ parse: () throws -> T) throws -> T {
        do {
            return try parse()
        } catch let error as HealthLogError {
            guard text.prefixMatch(of: /\d{4}-\d/) != nil else { throw error }
            throw HealthLogError(error.code, message(text, option))
        }
    }

    /// What is wrong with `text`, and what to write instead.
    static func reason(_ text: String) -> String {
        let general = "use an ISO 8601 instant (2024-03-01T08:00:00Z) or a date (2024-03-01)"
        let pattern = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/
        guard let match = text.wholeMatch(of: pattern), let month = Int(match.2), let day = Int(match.3) else { return general }
        let date = "\(match.1)-\(pad(month))-\(pad(day))"
        guard Timestamp(commandLine: date) != nil else {
            return "\(match.1)-\(match.2)-\(match.3) is not a day of the calendar (YYYY-MM-DD, month 01-12)"
        }
        guard let hourText = match.5, let hour = Int(hourText), let minute = match.6.flatMap({ Int($0) }) else {
            return "write the date as \(date)"
        }
        let second = match.7.flatMap { Int($0) } ?? 0
        guard hour <= 23, minute <= 59, second <= 59 else { return "the time \(hourText):\(match.6!)\(match.7.map { ":\($0)" } ?? "") is not a time of day" }
        var missing: [String] = []
        if match.4 != "T" { missing.append("a 'T' between the date and the time") }
        if match.7 == nil { missing.append("seconds") }
        let time = "\(date)T\(pad(hour)):\(pad(minute)):\(pad(second))\(match.8 ?? "")"
        guard let zone = match.9 else {
            missing.append("a UTC offset (Z, or +HH:MM)")
            return "it lacks \(missing.joined(separator: " and ")): write \(time)Z for UTC, \(time)+01:00 for an offset, or the date alone (\(date))"
        }
        var offset = zone.uppercased()
        if zone == "z" { missing.append("an uppercase Z") }
        if offset.count == 3 {
            missing.append("the offset's minutes")
            offset += ":00"
        } else if offset.count == 5 {
            offset.insert(":", at: offset.index(offset.startIndex, offsetBy: 3))
        }
        guard !missing.isEmpty else { return general }
        return "it lacks \(missing.joined(separator: " and ")): write \(time)\(offset)"
    }

    /// `number` with two digits at least.
    private static func pad(_ number: Int) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }
}
