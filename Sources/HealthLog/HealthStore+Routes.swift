/// Workout routes, whole (their parts joined), by workout or by date.
extension HealthStore {
    /// The live routes `uuid` names: the routes of the workout with that UUID (a route
    /// names its workout in ``WorkoutRouteSample/workout``), in the order they were added,
    /// or the route with that UUID itself.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` when no live sample has the UUID, when it
    ///   is a workout without a route, or a sample neither a workout nor a route;
    ///   ``HealthLogError/Code/noStore`` when there is no store; ``HealthLogError/Code/corrupt``
    ///   for damage.
    package func routes(for uuid: SampleUUID) throws -> [WorkoutRouteSample] {
        guard let sample = try result(ReplayRequest(predicate: .uuids([uuid]))).addedSamples.first else {
            throw HealthLogError(.badInput, "no live sample has UUID \(uuid)")
        }
        let isRoute = sample.sampleType == WorkoutRouteSample.type
        guard isRoute || sample.sampleType == .workout else {
            throw HealthLogError(
                .badInput, "\(uuid) is a \(sample.sampleType.identifier) sample, not a workout: give a workout's UUID (or a route's)")
        }
        let routes = try routes(matching: .all).filter { isRoute ? $0.uuid == uuid : $0.workout == uuid }
        guard !routes.isEmpty else {
            throw HealthLogError(.badInput, "workout \(uuid) has no route")
        }
        return routes
    }

    /// The live routes matching `predicate`, whole, in the order they were added.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store;
    ///   ``HealthLogError/Code/corrupt`` for damage.
    package func routes(matching predicate: QueryPredicate) throws -> [WorkoutRouteSample] {
        try result(ReplayRequest(types: [WorkoutRouteSample.type.identifier], predicate: predicate)).addedSamples.compactMap { $0 as? WorkoutRouteSample }
    }
}
