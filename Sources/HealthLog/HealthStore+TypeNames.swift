/// Sample types by the names people type.
extension HealthStore {
    /// The sample type `name` stands for: a HealthKit identifier spelled in full or short
    /// (`HeartRate`, `stepcount`, `SleepAnalysis`, `Workout`), in any case; a full identifier
    /// with a HealthKit prefix for a type newer than healthlog; or the one type present in
    /// the store whose full or short name it spells.
    ///
    /// ```swift
    /// let heartRate = try store.sampleType(named: "heartrate")   // HKQuantityTypeIdentifierHeartRate
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a name that matches no type (with "did
    ///   you mean …" when it is close to a known one) or several.
    public func sampleType(named name: String) throws -> SampleType {
        let identifier = try TypeNames.resolve(name, present: typesPresent)
        guard let type = SampleType(identifier) else { throw HealthLogError(.badUsage, "unknown type '\(name)'") }
        return type
    }
}
