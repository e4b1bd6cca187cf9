import Foundation
import HealthKit

// `HealthDataClient [--anchor-file PATH] [--page-size N] [--week-of YYYY-MM-DD]`:
// syncs heart rate and step changes after the anchor kept in PATH (all of them without
// one) and keeps the new anchor there, prints the three latest step samples, and the
// daily step totals of the week (starting Monday) containing the given day.

let usage = "usage: HealthDataClient [--anchor-file PATH] [--page-size N] [--week-of YYYY-MM-DD]\n"
let dayFormat = DateFormatter()
dayFormat.locale = Locale(identifier: "en_US_POSIX")
dayFormat.dateFormat = "yyyy-MM-dd"
let timeFormat = ISO8601DateFormatter()

var anchorFile: URL?
var pageSize = 50
var weekOf: Date?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    switch (option, arguments.popFirst()) {
    case ("--anchor-file", let path?): anchorFile = URL(fileURLWithPath: path)
    case ("--page-size", let text?) where Int(text).map({ $0 > 0 }) == true: pageSize = Int(text)!
    case ("--week-of", let text?) where dayFormat.date(from: text) != nil: weekOf = dayFormat.date(from: text)
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
}

let client = HealthDataClient(healthStore: HKHealthStore())

@MainActor
func line(for sample: HKQuantitySample) -> String {
    let unit = client.unit(for: sample.quantityType)
    return "\(sample.uuid.uuidString) \(sample.quantityType.identifier) \(timeFormat.string(from: sample.startDate)) \(sample.quantity.doubleValue(for: unit)) \(unit.unitString)"
}

do {
    let anchor = try anchorFile.flatMap { file -> HKQueryAnchor? in
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    }
    let (pages, newAnchor) = try await client.sync(after: anchor, pageSize: pageSize)
    for (number, page) in pages.enumerated() {
        print("page \(number + 1): \(page.added.count) added, \(page.deleted.count) deleted")
        for sample in page.added { print("  + \(line(for: sample))") }
        for object in page.deleted { print("  - \(object.uuid.uuidString)") }
    }
    let added = pages.reduce(0) { $0 + $1.added.count }
    let deleted = pages.reduce(0) { $0 + $1.deleted.count }
    print("synced \(added) added, \(deleted) deleted in \(pages.count) pages")
    if let anchorFile, let newAnchor {
        let data = try NSKeyedArchiver.archivedData(withRootObject: newAnchor, requiringSecureCoding: true)
        try data.write(to: anchorFile, options: .atomic)
    }

    print("latest steps:")
    for sample in try await client.latestSteps(count: 3) {
        print("  \(line(for: sample))")
    }

    if let weekOf {
        let calendar = Calendar.current
        let weekday = calendar.component(.weekday, from: weekOf)
        let monday = calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: calendar.startOfDay(for: weekOf))!
        print("steps by day, week of \(dayFormat.string(from: monday)):")
        for (day, steps) in try await client.dailySteps(weekStarting: monday) {
            print("  \(dayFormat.string(from: day)) \(steps)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("HealthDataClient: \(error.localizedDescription)\n".utf8))
    exit(1)
}
