#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UTC offsets of one IANA time zone (`Europe/Berlin`) over time, read from the
/// system's tz database: a TZif file (RFC 8536) under `$TZDIR` or `/usr/share/zoneinfo`,
/// its transitions and the POSIX TZ rule in its footer for instants past the last one.
///
/// healthlog's core does not link Foundation, and `localtime_r` with `TZ` set is process
/// global state (not thread-safe), so the file is parsed here: a pure value, safe to share.
///
/// ```swift
/// let berlin = try TimeZoneRules(named: "Europe/Berlin")
/// berlin.offsetSeconds(at: 1_711_846_800)   // 7200 (CEST), after the change of 31 March 2024
/// ```
public struct TimeZoneRules: Sendable, Hashable {
    /// The zone's name, as given.
    public let name: String
    /// Transition instants, seconds since 1970 UTC, ascending.
    private let transitions: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    private let offsets: [Int32]
    /// The offset before the first transition.
    private let initialOffset: Int32
    /// The rule for instants after the last transition, if the file has one.
    private let rule: PosixTimeZoneRule?

    /// The rules of the zone `name`, read from the tz database.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when `name` is not a zone name
    ///   (`Europe/Berlin`, `UTC`, `America/Argentina/Buenos_Aires`) or no such file is a TZif file.
    public init(named name: String) throws {
        let allowed = name.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 || c == 45 || c == 43 || c == 47
        }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            throw HealthLogError(.badUsage, "'\(name)' is not a time zone name such as Europe/Berlin")
        }
        let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        let bytes: [UInt8]
        do {
            let fd = try FileDescriptor.openNamedByUser(directory + "/" + name, flags: O_RDONLY)
            defer { fd.close() }
            bytes = try fd.read(at: 0, count: min(try fd.size(), 1 << 20))
        } catch {
            throw HealthLogError(.badUsage, "unknown time zone '\(name)': no such zone in \(directory)")
        }
        guard let parsed = TZifFile(bytes) else {
            throw HealthLogError(.badUsage, "unknown time zone '\(name)': \(directory)/\(name) is not a TZif file")
        }
        self.init(name: name, parsed)
    }

    /// Rules from a parsed TZif file.
    init(name: String, _ file: TZifFile) {
        self.name = name
        transitions = file.transitions
        offsets = file.offsets
        initialOffset = file.initialOffset
        rule = file.footer.flatMap(PosixTimeZoneRule.init)
    }

    /// The offset in seconds east of UTC at `seconds` since 1970 UTC.
    public func offsetSeconds(at seconds: Int64) -> Int {
        if let last = transitions.last, seconds >= last, let rule { return rule.offsetSeconds(at: seconds) }
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= seconds { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return transitions.isEmpty ? rule?.offsetSeconds(at: seconds) ?? Int(initialOffset) : Int(initialOffset) }
        return Int(offsets[low - 1])
    }

    /// The first instant (seconds since 1970 UTC) whose local time is `local` (seconds since
    /// 1970 of a local wall-clock time) or later: the instant itself when that local time
    /// exists, the earlier of two when it occurs twice (clocks set back), and the change of
    /// offset when it was skipped (clocks set forward over it).
    public func firstInstant(atLocal local: Int64) -> Int64 {
        let day: Int64 = 86_400
        let before = Int64(offsetSeconds(at: local - day))
        let after = Int64(offsetSeconds(at: local + day))
        if before == after, Int64(offsetSeconds(at: local - before)) == before { return local - before }
        var low = local - day
        var high = local + day
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if Int64(offsetSeconds(at: mid)) == before { low = mid } else { high = mid }
        }
        let change = high
        let candidates = [local - before, local - after].filter { u in u + Int64(offsetSeconds(at: u)) == local }
        return candidates.min() ?? change
    }
}
