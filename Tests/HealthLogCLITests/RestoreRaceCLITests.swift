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
        guard lines.count == 2 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: result.stdout]) }
        return Acknowledged(uuid: lines[0].uppercased(), seq: try QueryAnchor(token: lines[1]).seq)
    }

    /// Runs `add` in a loop on each of `writers` threads until `running` turns false; each
    /// acknowledged add, or what went wrong, lands in `outcomes`; `finished` counts the
    /// threads that stopped.
    static func addLoops(
        _ store: String, writers: Int, running: WatchedValue<Bool>, outcomes: WatchedValue<[Result<Acknowledged, any Error>]>, finished: WatchedValue<Int>
    ) {
        for _ in 0..<writers {
            Thread {
                while running.value {
                    do {
                        if let ack = try Self.add(store) { outcomes.update { $0.append(.success(ack)) } }
                    } catch {
                        outcomes.update { $0.append(.failure(error)) }
                    }
                }
                finished.update { $0 += 1 }
            }.start()
        }
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
        for (range, backup) in [(1...4000, "bk1"), (4001...8000, "bk2"), (8001...12000, nil)] {
            let seeded = try Self.run(store, ["append"], stdin: Events.lines(range))
            try #require(seeded.status == 0, "\(seeded.stderr)")
            if let backup { try #require(try Self.run(store, ["backup", dir.file(backup)]).status == 0) }
        }
        var acknowledged: [UInt64: String] = [:]
        for trial in 0..<8 {
            let running = WatchedValue(true)
            let outcomes = WatchedValue<[Result<Acknowledged, any Error>]>([])
            let finished = WatchedValue(0)
            Self.addLoops(store, writers: 2, running: running, outcomes: outcomes, finished: finished)
            let restores = try ["bk1", "bk2"].map {
                try HealthLogBinary.launch(["--store", store, "restore", "--force", dir.file($0)], environment: Self.environment, outputIn: dir)
            }
            let ended = await eventually(within: 300) { !restores.contains(where: \.process.isRunning) }
            for restore in restores where restore.process.isRunning { _ = await restore.stop(with: SIGKILL) }
            running.update { $0 = false }
            #expect(await finished.wait(within: 120) { $0 == 2 })
            #expect(ended, "trial \(trial): the restores did not end")
            for restore in restores {
                let result = restore.finish()
                #expect(result.status == 0, "trial \(trial): \(result.stderr)")
            }
            var acks: [Acknowledged] = []
            for outcome in outcomes.value {
                switch outcome {
                case .success(let ack): acks.append(ack)
                case .failure(let error): Issue.record("trial \(trial): add printed no UUID and anchor: \(error)")
                }
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
