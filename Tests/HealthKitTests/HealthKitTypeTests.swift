import Foundation
@testable import HealthKit
import Testing

/// The module's types behave as HealthKit's: identifiers both ways, units, anchors.
@Suite struct HealthKitTypeTests {
    @Test("A type made from its identifier equals the one the class method returns")
    func bothSpellings() {
        #expect(HKQuantityType(.heartRate) == HKObjectType.quantityType(forIdentifier: .heartRate))
        #expect(HKQuantityType(.heartRate).identifier == "HKQuantityTypeIdentifierHeartRate")
        #expect(HKCategoryType(.sleepAnalysis) == HKObjectType.categoryType(forIdentifier: .sleepAnalysis))
        #expect(HKCorrelationType(.bloodPressure).identifier == "HKCorrelationTypeIdentifierBloodPressure")
        #expect(HKQuantityType(.stepCount).aggregationStyle == .cumulative)
        #expect(HKQuantityType(.heartRate).aggregationStyle == .discreteTemporallyWeighted)
        #expect(Set<HKSampleType>([HKQuantityType(.stepCount), HKQuantityType(.stepCount)]).count == 1)
        #expect(HKQuantityType(.vo2Max).is(compatibleWith: HKUnit(from: "mL/kg·min")))
    }

    @Test("Category values, metadata keys and activity types carry HealthKit's values")
    func constants() {
        #expect(HKCategoryValueSleepAnalysis.asleepREM.rawValue == 5)
        #expect(HKCategoryValueSleepAnalysis.asleep == .asleepUnspecified)
        #expect(HKCategoryValue.notApplicable.rawValue == 0)
        #expect(HKMetadataKeySyncIdentifier == "HKMetadataKeySyncIdentifier")
        #expect(HKMetadataKeyTimeZone == "HKTimeZone")
        #expect(HKWorkoutActivityType.running.rawValue == 37)
        #expect(HKWorkoutActivityType(storedName: "HKWorkoutActivityTypeRunning") == .running)
    }

    @Test("Quantities convert between compatible units")
    func units() {
        let weight = HKQuantity(unit: .pound(), doubleValue: 2)
        #expect(abs(weight.doubleValue(for: .gramUnit(with: .kilo)) - 0.90718474) < 1e-9)
        #expect(weight.is(compatibleWith: .gram()))
        #expect(!weight.is(compatibleWith: .meter()))
        let rate = HKUnit.count().unitDivided(by: .minute())
        #expect(rate.unitString == "count/min")
        #expect(HKQuantity(unit: rate, doubleValue: 60).doubleValue(for: HKUnit.count().unitDivided(by: .second())) == 1)
        #expect(HKUnit.literUnit(with: .milli).unitString == "mL")
        #expect(HKQuantity(unit: .moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter()), doubleValue: 5.5)
            .is(compatibleWith: HKUnit(from: "mg/dL")))
    }

    @Test("An anchor survives NSKeyedArchiver with secure coding and Codable")
    func anchorArchives() throws {
        let anchor = HKQueryAnchor(fromValue: 42)
        let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        #expect(back == anchor)
        let json = try JSONEncoder().encode(anchor)
        #expect(try JSONDecoder().decode(HKQueryAnchor.self, from: json) == anchor)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: Data("not an archive".utf8))) == nil)
    }

    @Test("Workouts made without a device and errors made from a user-info dictionary, as app code makes them")
    func appCodeInitialisers() {
        let start = Date(timeIntervalSince1970: 1_709_251_200)
        let workout = HKWorkout(
            activityType: .running, start: start, end: start.addingTimeInterval(1_800), duration: 1_800,
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 300), totalDistance: nil, metadata: ["note": "easy"])
        #expect(workout.duration == 1_800 && workout.device == nil)
        let error = HKError(HKError.errorUserCanceled, userInfo: [NSLocalizedDescriptionKey: "cancelled"])
        #expect(error.code == .errorUserCanceled && error.localizedDescription == "cancelled")
        #expect(HKError.errorNotPermissibleForGuestUserMode.rawValue == 15)
    }
}
