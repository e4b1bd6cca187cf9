import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// Two `restore --force` of different backups into one store while `add` runs in a loop:
/// the restores take turns with each other and with the writers, so no acknowledged add is
/// lost or renumbered.
@Suite("restore: racing writers and another restore")
struct RestoreRaceCLITests {
    /// Many small segments; lock waits long enough for a restore under load.
    static let environment = ["HEALTHLOG_SEGMENT_BYTES": "65536", "HEALTHLOG_BATCH_BYTES": "16384", "HEALTHLOG_LOCK_TIMEOUT": "120"]

    /// An add the command acknowledged: the UUID and sequence number it printed.
    struct Acknowledged {
        var uuid: String
        var seq: UInt64
    }

    /// Runs `healthlog --store STORE ARGUMENTS` under ``environment``.
    static func run(_ store: String, _ arguments: [String], stdin: String = "") throws -> BuiltProgram.Result {
        try HealthLogBinary.run(["--store", store] + arguments, stdin: stdin, environment: environment)
    }

    /// One `add`; what it acknowledged, or `nil` when it exited non-zero.
    static func add(_ store: String) throws -> Acknowledged? {
        let result = try run(store, ["add", "--type", "HeartRate", "--value", "70", "--unit", "count/min"])
        guard result.status == 0 else { return nil }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(result.stdout)")
        return Acknowledged(uuid: lines[0].uppercased(), seq: try QueryAnchor(token: lines[1]).seq)
    }

    /// The UUID of every sample event the store replays, by sequence number.
    static func samples(_ store: String) throws -> [UInt64: String] {
        let replay = try run(store, ["replay"])
        try #require(replay.status == 0, "\(replay.stderr)")
        var out: [UInt64: String] = [:]
        for line in replay.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let seq = object["seq"] as? Int, let uuid = object["uuid"] as? String { out[UInt64(seq)] = uuid.uppercased() }
        }
        return out
    }

    @Test("Every acknowledged add keeps its number and content, or lies in history a restore discarded; no number names two events; the store verifies", .timeLimit(.minutes(10)))
    func restoresRaceWriters() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        for (range, backup) in [(1...3000, "bk1"), (3001...6000, "bk2"), (6001...9000, nil)] {
            let seeded = try Self.run(store, ["append"], stdin: Events.lines(range))
            try #require(seeded.status == 0, "\(seeded.stderr)")
            if let backup { try #require(try Self.run(store, ["backup", dir.file(backup)]).status == 0) }
        }
        var acknowledged: [UInt64: String] = [:]
        for trial in 0..<8 {
            let restores = try ["bk1", "bk2"].map {
                try HealthLogBinary.launch(["--store", store, "restore", "--force", dir.file($0)], environment: Self.environment, outputIn: dir)
            }
            var acks: [Acknowledged] = []
            let deadline = Date().addingTimeInterval(300)
            repeat {
                if let ack = try Self.add(store) { acks.append(ack) }
            } while restores.contains(where: \.process.isRunning) && Date() < deadline
            for restore in restores where restore.process.isRunning { _ = await restore.stop(with: SIGKILL) }
            if let ack = try Self.add(store) { acks.append(ack) }
            for restore in restores {
                let result = restore.finish()
                #expect(result.status == 0, "trial \(trial): \(result.stderr)")
            }
            let verify = try Self.run(store, ["verify"])
            #expect(verify.status == 0, "trial \(trial): \(verify.stdout)\(verify.stderr)")
            let final = try Self.samples(store)
            for ack in acks {
                #expect(acknowledged[ack.seq] == nil, "trial \(trial): sequence \(ack.seq) acknowledged for \(acknowledged[ack.seq] ?? "") and \(ack.uuid)")
                acknowledged[ack.seq] = ack.uuid
                if let held = final[ack.seq] {
                    #expect(held == ack.uuid, "trial \(trial): sequence \(ack.seq) acknowledged for \(ack.uuid), the store holds \(held) there")
                } else {
                    let from = try Self.run(store, ["replay", "--from", String(ack.seq), "--limit", "1"])
                    #expect(from.status == 3 && from.stderr.contains("discarded"), "trial \(trial): sequence \(ack.seq) (\(ack.uuid)) acknowledged, neither in the store nor discarded: \(from.stderr)")
                }
            }
        }
    }
}
