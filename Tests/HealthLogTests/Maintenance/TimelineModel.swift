import Foundation
@testable import HealthLog

/// One history of the store as the timeline model knows it: what a backup copies and a
/// restore brings back (cut or whole). Sequence numbers are never reused, so a number
/// names one event across every history there ever was.
struct ModelHistory {
    /// One event: an add or a delete of sample `sample` (the number its UUID is made of).
    struct Event { var isDelete: Bool, sample: Int }
    /// One append: its first and last sequence number, its append time and the latest of
    /// that and its commit time where its last batch records one (ms since 1970): a cut
    /// to a date keeps it when the latter is at or before the date.
    struct Append { var first: UInt64, last: UInt64, millis: Int64, cutMillis: Int64 }

    /// The events still in the log, by sequence number (without what compaction dropped).
    var events: [UInt64: Event] = [:]
    /// Every event this history holds or held before a compaction, ascending: the
    /// sequence numbers are the history's identity (what anchors are judged by), and the
    /// UUIDs stay used (a compacted one stays in its batch header).
    var all: [(seq: UInt64, event: Event)] = []
    /// The appends, in order.
    var appends: [Append] = []
    /// The compactions this history has seen, oldest first: a model-wide id and the horizon.
    var compactions: [(id: Int, horizon: UInt64)] = []
    /// The timeline starts (kept seq P, first seq S): `P < seq < S` is discarded history.
    var starts: [(kept: UInt64, first: UInt64)] = []

    /// The head: the last event appended, or the kept seq of the restore that began it.
    var head: UInt64 { max(appends.last?.last ?? 0, starts.last?.kept ?? 0) }

    /// The samples added and not deleted.
    var live: Set<Int> {
        var out = Set<Int>()
        for seq in events.keys.sorted() {
            let event = events[seq]!
            if event.isDelete { out.remove(event.sample) } else { out.insert(event.sample) }
        }
        return out
    }

    /// The samples whose UUIDs this history used, compacted ones included.
    var usedSamples: Set<Int> { Set(all.map(\.event.sample)) }

    /// The sequence numbers of ``all`` up to `seq`.
    func prefix(through seq: UInt64) -> ArraySlice<UInt64> {
        all.lazy.map(\.seq).prefix { $0 <= seq }.reduce(into: [UInt64]()) { $0.append($1) }[...]
    }

    /// Records an append of `events` numbered from `first` at `millis`, committed at
    /// `committed` when its last batch records that.
    mutating func append(_ new: [Event], first: UInt64, millis: Int64, committed: Int64? = nil) {
        for (offset, event) in new.enumerated() {
            events[first + UInt64(offset)] = event
            all.append((first + UInt64(offset), event))
        }
        appends.append(Append(first: first, last: first + UInt64(new.count) - 1, millis: millis, cutMillis: max(millis, committed ?? millis)))
    }

    /// What a replay from `seq` should deliver in HealthKit's view: (seq, is delete, sample).
    func view(after seq: UInt64) -> [(UInt64, Bool, Int)] {
        let live = live
        return events.keys.sorted().filter { $0 > seq }.compactMap { key in
            let event = events[key]!
            return event.isDelete || live.contains(event.sample) ? (key, event.isDelete, event.sample) : nil
        }
    }

    /// This history cut after its first `count` appends (`restore --to`): what follows is
    /// gone, and so are the timeline starts after the cut.
    func cut(keeping count: Int) -> ModelHistory {
        var out = self
        out.appends = Array(appends.prefix(count))
        let kept = out.appends.last?.last ?? 0
        out.events = events.filter { $0.key <= kept }
        out.all = all.filter { $0.seq <= kept }
        out.starts = starts.filter { $0.first <= kept }
        return out
    }

    /// Drops every delete at or before `horizon` with the add of the sample it deleted;
    /// returns how many deletes went (0: nothing is committed).
    mutating func compact(horizon: UInt64, id: Int) -> Int {
        let deletes = events.filter { $0.value.isDelete && $0.key <= horizon }
        let samples = Set(deletes.values.map(\.sample))
        guard !samples.isEmpty else { return 0 }
        events = events.filter { !samples.contains($0.value.sample) }
        compactions.append((id, horizon))
        return samples.count
    }
}

/// An anchor the store issued, with what the model knew when it did.
struct IssuedAnchor {
    /// The anchor as the store issued it.
    var anchor: QueryAnchor
    /// The issuing history's sequence numbers up to the anchor's: the position it names.
    var prefix: ArraySlice<UInt64>
    /// The ids of the compactions the issuing history had seen.
    var knownCompactions: Set<Int>
    /// Where it came from, for messages.
    var origin: String

    /// Why the model refuses it in `history` (the words the refusal must carry), or nil when
    /// it is valid there: past the head, naming history a restore discarded (its position
    /// is not this history's), or expired (a compaction it had not seen dropped deletes
    /// above it).
    func refusal(in history: ModelHistory) -> [String]? {
        guard anchor.seq > 0 else { return nil }
        var reasons: [String] = []
        if anchor.seq > history.head { reasons.append("past the store's head") }
        if history.prefix(through: anchor.seq) != prefix { reasons.append("discarded") }
        if history.compactions.contains(where: { !knownCompactions.contains($0.id) && anchor.seq < $0.horizon }) { reasons.append("expired") }
        return reasons.isEmpty ? nil : reasons
    }
}

/// Lines for the store: adds of samples and deletes, in that order.
enum TimelineLines {
    /// The UUID of sample `n`.
    static func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// The sample number a stored line's UUID names.
    static func sample(ofUUID text: Substring) -> Int { Int(text.suffix(12))! }

    /// Types and units, by sample number.
    static let types = [
        ("HKQuantityTypeIdentifierHeartRate", "count/min"), ("HKQuantityTypeIdentifierStepCount", "count"),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal"),
    ]

    /// NDJSON adding `adds` and deleting `deletes`.
    static func ndjson(adds: [Int], deletes: [Int]) -> [UInt8] {
        var text = ""
        for n in adds {
            let (type, unit) = types[n % types.count]
            text += #"{"uuid":"\#(uuid(n))","type":"\#(type)","unit":"\#(unit)","start":"2024-03-01T08:00:00Z","value":\#(n % 500),"metadata":{"pad":"\#(String(repeating: "x", count: n % 40))"}}"# + "\n"
        }
        for n in deletes { text += #"{"op":"delete","uuid":"\#(uuid(n))"}"# + "\n" }
        return Array(text.utf8)
    }

    /// A stored line as (seq, is delete, sample).
    static func parse(_ line: String) -> (UInt64, Bool, Int) {
        let seq = UInt64(line.dropFirst(7).prefix(while: \.isNumber))!
        let isDelete = line.contains(#""op":"delete""#)
        let uuidStart = line.range(of: #""uuid":""#)!.upperBound
        return (seq, isDelete, sample(ofUUID: line[uuidStart...].prefix(36)))
    }
}
