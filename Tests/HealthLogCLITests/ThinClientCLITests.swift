import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `add` builds a typed sample (workouts included) and saves it through
/// the library; `--version`; an empty append writes nothing and says so; a directory given
/// as an input file is bad usage.
@Suite("Thin client")
struct ThinClientCLITests {
    @Test("add --type Workout --activity --duration saves a workout with that activity and duration")
    func addWorkout() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let added = try HealthLogBinary.run([
            "--store", store, "add", "--type", "Workout", "--activity", "HKWorkoutActivityTypeRunning", "--duration", "1800",
            "--start", "2024-03-01T07:00:00Z", "--end", "2024-03-01T07:30:00Z",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr == "healthlog: added 1, deleted 0, replaced 0, skipped 0\n")
        let result = try HealthStore(directory: store).result(ReplayRequest(anchor: .beginning))
        let workout = try #require(result.addedSamples.first as? WorkoutSample)
        #expect(workout.activity == "HKWorkoutActivityTypeRunning" && workout.duration == 1800)
        #expect(workout.uuid.description == added.stdout.split(separator: "\n").first.map(String.init))
    }

    @Test("add names the option a kind requires or does not take: exit 2 with the usage, nothing written",
        arguments: [
            (["--type", "Workout"], "--activity is required for a workout type (HKWorkoutTypeIdentifier)"),
            (["--type", "HeartRate", "--value", "70"], "--unit is required for a quantity type (HKQuantityTypeIdentifierHeartRate)"),
            (["--type", "HeartRate", "--value", "70", "--unit", "count/min", "--activity", "run"],
             "--activity does not apply to a quantity type (HKQuantityTypeIdentifierHeartRate)"),
            (["--type", "HeartRate", "--value", "fast", "--unit", "count/min"], "--value 'fast' is not a number; a quantity's value must be one"),
        ])
    func addRefusesOptions(_ options: [String], _ message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let result = try HealthLogBinary.run(["--store", store, "add"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("healthlog: error: \(message)\nUsage: healthlog [--store <dir>] add "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("--version prints the tool's version and the store format versions from the library")
    func version() throws {
        let result = try HealthLogBinary.run(["--version"])
        let expected = "healthlog 0.9.0 (store format \(StoreFormat.version), index versions: segment index \(StoreFormat.segmentIndexVersion), "
            + "UUID runs \(StoreFormat.uuidRunVersion), sync table \(StoreFormat.syncTableVersion), "
            + "deleted-add index \(StoreFormat.deletedAddIndexVersion))\n"
        GoldenTests.expect(result, status: 0, stdout: expected)
    }

    @Test("An append of empty input creates no store and says that nothing was written: exit 0")
    func emptyAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: "\n")
        GoldenTests.expect(result, status: 0, stdout: "0\n", stderr: "healthlog: note: the input holds no events; nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("A directory given as an input file is bad usage like a missing file: exit 2, nothing written")
    func directoryInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let result = try HealthLogBinary.run(["--store", store, "append", dir.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("healthlog: error: '\(dir.path)' is a directory, not a file: append reads NDJSON event files\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
