import Foundation
import HealthKit

// The app's start, as a command: ask for access, sync every type from its saved anchor,
// optionally save a glucose reading and wait for the sync to deliver it, then show the
// latest readings. Output is in a fixed order, one line per fact.
//
//   GlucoseSync [--save-glucose MG_PER_DL ISO8601_DATE]

let arguments = Array(CommandLine.arguments.dropFirst())
var glucoseToSave: (value: Double, date: Date)?
if arguments.first == "--save-glucose" {
    guard arguments.count == 3, let value = Double(arguments[1]),
          let date = ISO8601DateFormatter().date(from: arguments[2]) else {
        FileHandle.standardError.write("usage: GlucoseSync [--save-glucose MG_PER_DL ISO8601_DATE]\n".data(using: .utf8)!)
        exit(2)
    }
    glucoseToSave = (value, date)
} else if !arguments.isEmpty {
    FileHandle.standardError.write("usage: GlucoseSync [--save-glucose MG_PER_DL ISO8601_DATE]\n".data(using: .utf8)!)
    exit(2)
}

let manager = HealthKitManager()
let timeout = DispatchTime.now() + .seconds(60)

/// Waits for `semaphore`, giving up (exit 1) after the run's timeout.
func wait(for semaphore: DispatchSemaphore, _ what: String) {
    if semaphore.wait(timeout: timeout) == .timedOut {
        FileHandle.standardError.write("timed out waiting for \(what)\n".data(using: .utf8)!)
        exit(1)
    }
}

let authorized = DispatchSemaphore(value: 0)
manager.requestAuthorization { success in
    print("authorized: \(success)")
    authorized.signal()
}
wait(for: authorized, "authorization")

let types = [manager.heartRateType, manager.stepCountType, manager.glucoseType]
let format = ISO8601DateFormatter()

func displayUnit(for type: HKQuantityType) -> HKUnit {
    switch type {
    case manager.heartRateType: return HKUnit.count().unitDivided(by: .minute())
    case manager.glucoseType: return manager.glucoseUnit
    default: return .count()
    }
}

func describe(_ title: String, _ type: HKQuantityType, _ samples: [HKQuantitySample], _ deleted: [HKDeletedObject]) -> [String] {
    let unit = displayUnit(for: type)
    var lines = ["\(title) \(type.identifier): \(samples.count) new, \(deleted.count) deleted"]
    for sample in samples {
        lines.append("  + \(sample.uuid.uuidString) \(format.string(from: sample.startDate)) \(sample.quantity.doubleValue(for: unit)) \(unit.unitString)")
    }
    for object in deleted {
        lines.append("  - \(object.uuid.uuidString)")
    }
    return lines
}

// Deliveries arrive on HealthKit's queues; they are kept per type and printed in order.
let lock = NSLock()
var initialLines: [HKQuantityType: [String]] = [:]
var updateLines: [String] = []
let initialDelivered = DispatchGroup()
let glucoseUpdated = DispatchSemaphore(value: 0)

for type in types {
    initialDelivered.enter()
    manager.startSync(of: type) { type, samples, deleted in
        lock.lock()
        defer { lock.unlock() }
        if initialLines[type] == nil {
            initialLines[type] = describe("sync", type, samples, deleted)
            initialDelivered.leave()
        } else if !samples.isEmpty || !deleted.isEmpty {
            updateLines += describe("update", type, samples, deleted)
            if type == manager.glucoseType { glucoseUpdated.signal() }
        }
    }
}
if initialDelivered.wait(timeout: timeout) == .timedOut {
    FileHandle.standardError.write("timed out waiting for the first sync\n".data(using: .utf8)!)
    exit(1)
}
lock.lock()
for type in types { initialLines[type]!.forEach { print($0) } }
lock.unlock()

if let reading = glucoseToSave {
    let saved = DispatchSemaphore(value: 0)
    manager.saveGlucose(milligramsPerDeciliter: reading.value, at: reading.date) { success, error in
        print("saved glucose \(reading.value) mg/dL at \(format.string(from: reading.date)): \(success)")
        if let error = error { print("save failed: \(error.localizedDescription)") }
        saved.signal()
    }
    wait(for: saved, "the save")
    wait(for: glucoseUpdated, "the update handler")
    lock.lock()
    updateLines.forEach { print($0) }
    lock.unlock()
}
manager.stopSyncing()

for type in [manager.heartRateType, manager.glucoseType] {
    let fetched = DispatchSemaphore(value: 0)
    manager.fetchLatestSample(of: type) { sample in
        if let sample = sample {
            let unit = displayUnit(for: type)
            print("latest \(type.identifier): \(sample.uuid.uuidString) \(format.string(from: sample.endDate)) \(sample.quantity.doubleValue(for: unit)) \(unit.unitString)")
        } else {
            print("latest \(type.identifier): none")
        }
        fetched.signal()
    }
    wait(for: fetched, "the latest \(type.identifier)")
}
