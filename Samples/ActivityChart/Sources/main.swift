import Foundation
import HealthKit

// Draws one week of a chart as text: `ActivityChart steps|heartRate DATE` prints the week
// (Monday to Sunday) containing DATE, a day a line, "-" for a day without samples. With
// `--add VALUE ISO8601_DATE` it then saves a sample of the chart's type and prints the
// week again once the query's update handler has delivered it.

let usage = "usage: ActivityChart steps|heartRate YYYY-MM-DD [--add VALUE ISO8601_DATE]\n"
let arguments = Array(CommandLine.arguments.dropFirst())
let dayFormat = DateFormatter()
dayFormat.locale = Locale(identifier: "en_US_POSIX")
dayFormat.dateFormat = "yyyy-MM-dd"

guard arguments.count == 2 || (arguments.count == 5 && arguments[2] == "--add"),
      let kind = ChartKind(rawValue: arguments[0]), let day = dayFormat.date(from: arguments[1]) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
var addition: (value: Double, date: Date)?
if arguments.count == 5 {
    guard let value = Double(arguments[3]), let date = ISO8601DateFormatter().date(from: arguments[4]) else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    addition = (value, date)
}

// A bound on a hang: a run takes well under a second.
DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
    FileHandle.standardError.write(Data("timed out\n".utf8))
    exit(1)
}

let healthStore = HKHealthStore()
try await healthStore.requestAuthorization(toShare: [kind.quantityType], read: [kind.quantityType])

let model = ChartModel(kind: kind, weekContaining: day, healthStore: healthStore)

/// Prints the chart's days.
@MainActor
func printChart(_ title: String, _ values: [ChartValue]) {
    print("\(title) \(kind.quantityType.identifier) by day, week of \(dayFormat.string(from: model.weekStart)) (\(kind.unit.unitString))")
    for value in values {
        print("  \(dayFormat.string(from: value.day)) \(value.value.map { String($0) } ?? "-")")
    }
}

let initial = await withCheckedContinuation { continuation in
    model.onChange = { values in
        model.onChange = nil
        continuation.resume(returning: values)
    }
    model.start()
}
printChart("chart", initial)

if let addition {
    let sample = HKQuantitySample(type: kind.quantityType,
                                  quantity: HKQuantity(unit: kind.unit, doubleValue: addition.value),
                                  start: addition.date,
                                  end: addition.date)
    let updated = await withCheckedContinuation { continuation in
        model.onChange = { values in
            model.onChange = nil
            continuation.resume(returning: values)
        }
        Task {
            do {
                try await healthStore.save(sample)
            } catch {
                FileHandle.standardError.write(Data("save failed: \(error)\n".utf8))
                exit(1)
            }
        }
    }
    printChart("updated", updated)
}
model.stop()
