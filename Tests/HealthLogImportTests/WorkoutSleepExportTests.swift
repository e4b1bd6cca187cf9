import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Workout and sleep summaries of the public sample exports, against figures worked out by
/// hand from the exports' own attributes.
@Suite("Workout and sleep summaries of real exports")
struct WorkoutSleepExportTests {
    @Test("healthkit-to-sqlite's run: miles to km, its inline route's two points, its start in its HKTimeZone")
    func inlineRouteRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, store) = try ImportTests.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite.xml"), dir)
        let run = try #require(try store.workoutSummaries(timeZone: .recorded).first)
        #expect(run.activityName == "Running" && run.source == "Apple\u{A0}Watch", "the export's no-break space kept")
        #expect(abs(run.duration - 5.19412346680959 * 60) < 1e-9)
        #expect(abs(run.distance! - 0.4971749504535062 * 1.609344) < 1e-12)
        #expect(run.energy == 48.74499999999999)
        // Recorded at -07:00, but Los Angeles keeps -08:00 on 14 November 2016.
        #expect(run.start.description == "2016-11-14T06:25:41-08:00")
        #expect(run.routePoints == 2 && run.elevationGain == 0 && run.elevationSource == .route)
        #expect(run.heartRateCount == 0 && run.heartRateAverage == nil, "its one heart rate is from 2018")
    }

    @Test("The localised zip's GPX route climbs 8.328 mm over three points; tdda's workout keeps its recorded offset")
    func gpxRouteAndOffset() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, zipped) = try ImportTests.importFresh(PackageFiles.appleHealthExport("healthkit-to-sqlite-localised.zip"), dir)
        let run = try #require(try zipped.workoutSummaries().first)
        #expect(run.routePoints == 3)
        #expect(abs(run.elevationGain! - 0.008328) < 1e-9)
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let (_, tdda) = try ImportTests.importFresh(PackageFiles.appleHealthExport("tdda-applehealthdata.xml"), other)
        let workout = try #require(try tdda.workoutSummaries(timeZone: .recorded, distanceUnit: HealthUnit("mi"), energyUnit: HealthUnit("kJ")).first)
        #expect(workout.start.description == "2016-04-02T10:40:38+01:00" && workout.activityName == "Other")
        #expect(workout.distance == 0 && abs(workout.energy! - 139.3170000000021 * 4.184) < 1e-9)
        #expect(workout.routePoints == 0 && workout.elevationGain == nil)
    }

    @Test("alxdrcirilo's night: the phone's 85 s in bed and the watch's 750 s of core, on Amsterdam's clock")
    func phoneAndWatchNight() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, store) = try ImportTests.importFresh(PackageFiles.appleHealthExport("alxdrcirilo-apple-health-parser.xml"), dir)
        let nights = try store.sleepSummaries(timeZone: .recorded)
        let night = try #require(nights.first)
        #expect(nights.count == 1 && night.label == "2024-01-01")
        #expect(night.inBed == 835 && night.core == 750 && night.asleep == 750 && night.awake == 0)
        #expect(night.efficiency == 750.0 / 835)
        // Recorded at +02:00, but Amsterdam keeps +01:00 in January.
        #expect(night.first.description == "2023-12-31T23:55:28+01:00" && night.last.description == "2024-01-01T02:40:23+01:00")
        #expect(night.sources == ["Alexandre's Apple Watch", "Alexandre's iPhone"])
    }
}
