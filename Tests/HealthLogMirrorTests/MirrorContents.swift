import Foundation
import HealthLog
@testable import HealthLogMirror
import HealthLogTestSupport

/// What a mirror database holds, read back with the program's own SQLite wrapper: each
/// sample's event line by UUID, and the anchor.
struct MirrorContents: Equatable {
    /// The `event` column by `uuid`.
    var events: [String: String]
    /// The token in `sync_state`.
    var anchor: String

    /// Reads the mirror at `path`.
    init(path: String) throws {
        let database = try SQLiteDatabase(path: path)
        var events: [String: String] = [:]
        for row in try database.prepare("SELECT uuid, event FROM samples").rows() {
            events[row[0]] = row[1]
        }
        self.events = events
        anchor = try database.prepare("SELECT anchor FROM sync_state").rows().first?[0] ?? ""
    }

    /// What a mirror of `store` should hold: its live samples (of `types`, if any) as their
    /// event lines, and the anchor of the last of its events that matched.
    init(expectedFrom store: HealthStore, types: Set<SampleType> = []) throws {
        let result = try store.result(ReplayRequest(types: Set(types.map(\.identifier))))
        events = Dictionary(uniqueKeysWithValues: result.addedSamples.map { ($0.uuid.description, $0.description) })
        anchor = result.newAnchor.token
    }
}

/// The store's history as the raw log records it, to check a mirror against any anchor.
struct StoreHistory {
    private struct Event: Decodable {
        var seq: UInt64
        var op: String
        var uuid: String
    }

    private let events: [Event]

    /// Reads every event of `store`.
    init(_ store: HealthStore) throws {
        var events: [Event] = []
        _ = try store.replay(ReplayRequest(raw: true)) { line in
            events.append(try JSONDecoder().decode(Event.self, from: Data(line)))
        }
        self.events = events
    }

    /// The UUIDs of the samples live just after sequence number `seq`.
    func liveUUIDs(through seq: UInt64) -> Set<String> {
        var live: Set<String> = []
        for event in events where event.seq <= seq {
            if event.op == "delete" { live.remove(event.uuid) } else { live.insert(event.uuid) }
        }
        return live
    }
}
