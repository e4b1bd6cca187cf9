import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A route or electrocardiogram longer than one part, saved through the library: stored as
/// linked part lines, each under the line limit, and given back whole; deleted whole.
@Suite("Series stored in parts")
struct SeriesPartsTests {
    @Test("save(_:) of a 25,000-point route and a 250,000-voltage ECG stores parts; result(_:) joins them, in order; delete(_:) removes every part, one deleted object a series")
    func saveJoinDelete() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let start = try #require(Timestamp(iso8601: "2024-03-01T08:00:00Z"))
        let points = (0..<25_000).map { k in
            RouteLocation(time: Timestamp(microseconds: start.microseconds + Int64(k) * 1_000_000), latitude: 45 + Double(k) * 1e-6, longitude: 7, altitude: Double(k % 100))
        }
        let route = WorkoutRouteSample(workout: nil, locations: points, fields: SampleFields(start: start, end: points.last?.time, metadata: ["k": .string("v")]))
        let voltages = (0..<250_000).map { Double($0 % 1000) / 8 }
        let ecg = ElectrocardiogramSample(classification: "Sinus Rhythm", voltageUnit: "µV", voltages: voltages, fields: SampleFields(start: start))
        try store.save([route, ecg])

        var lines: [[String: Any]] = []
        _ = try store.export(ReplayRequest()) { line in
            #expect(line.count < 2 << 20)
            if let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { lines.append(object) }
        }
        #expect(lines.count == 3 + 3)
        #expect(lines.first?["uuid"] as? String == route.uuid.description)
        #expect(lines.contains { $0["uuid"] as? String == SeriesParts.partUUID(series: route.uuid, index: 2).description })

        let samples = try store.result(ReplayRequest()).addedSamples
        #expect(samples.count == 2)
        let back = try #require(samples.first as? WorkoutRouteSample)
        #expect(back.uuid == route.uuid && back.locations == points && back.metadata == ["k": .string("v")])
        let ecgBack = try #require(samples.last as? ElectrocardiogramSample)
        #expect(ecgBack.uuid == ecg.uuid && ecgBack.voltages == voltages && ecgBack.metadata.isEmpty)

        try store.delete([route.uuid, ecg.uuid])
        let after = try store.result(ReplayRequest())
        #expect(after.addedSamples.isEmpty)
        #expect(after.deletedObjects.map(\.uuid) == [route.uuid, ecg.uuid])
        #expect(try store.export(ReplayRequest()) { _ in } == 0)
    }

    @Test("A part whose head the result does not hold comes back on its own, its part keys kept")
    func orphanPart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let start = try #require(Timestamp(iso8601: "2024-03-01T08:00:00Z"))
        let points = (0..<(SeriesParts.pointsPerPart + 5)).map { k in
            RouteLocation(time: Timestamp(microseconds: start.microseconds + Int64(k) * 1_000_000), latitude: 45, longitude: 7)
        }
        let route = WorkoutRouteSample(workout: nil, locations: points, fields: SampleFields(start: start))
        try store.save([route])
        let page = try store.result(ReplayRequest(anchor: QueryAnchor(fromValue: 1)))
        let part = try #require(page.addedSamples.first as? WorkoutRouteSample)
        #expect(page.addedSamples.count == 1 && part.locations.count == 5)
        #expect(SeriesParts.place(in: part.metadata)?.series == route.uuid)
    }
}
