import HealthLog

/// `healthlog workouts`: one row per workout, with its heart rate, elevation and route.
enum WorkoutsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "workouts",
        abstract: "One row per workout: start, activity, duration, distance, energy, heart rate, elevation gain and route points.",
        discussion: "Workouts are listed by start, in each workout's own local time unless a clock option says otherwise. Distance and energy are converted from the units the workout recorded them in. Heart rate is the mean and the highest of the heart-rate samples (of any source) that start during the workout, in beats per minute. Elevation gain, in metres, is the workout's HKElevationAscended metadata when it has one, else the sum of the rises in altitude between successive points of its routes (elevation_from says which). The predicate options select the workouts; their heart rates and routes are found by time and by the route's workout. In csv and ndjson, duration is in minutes and numbers are rounded: minutes and distance to 2 decimals, energy, heart rate and elevation to 1; empty (csv) or null (ndjson) where nothing was recorded.")

    struct Options: OptionGroup {
        let distanceUnit = Option(
            "--distance-unit", "unit", help: "The unit of distances: km (the default) or mi.", synopsis: "--distance-unit km|mi", completion: .choices(["km", "mi"])
        ) { text in
            guard ["km", "mi"].contains(text.lowercased()) else { throw HealthLogError(.badUsage, "--distance-unit must be km or mi, not '\(text)'") }
            return try HealthUnit(text.lowercased())
        }
        let energyUnit = Option(
            "--energy-unit", "unit", help: "The unit of energy: kcal (the default) or kJ.", synopsis: "--energy-unit kcal|kJ", completion: .choices(["kcal", "kJ"])
        ) { text in
            switch text.lowercased() {
            case "kcal": return try HealthUnit("kcal")
            case "kj": return try HealthUnit("kJ")
            default: throw HealthLogError(.badUsage, "--energy-unit must be kcal or kJ, not '\(text)'")
            }
        }
        let clock = ClockOptions.personal("Times")
        let predicate = PredicateOptions()
        let format = SummaryOutput.format("workout")

        var members: [any OptionMember] { [distanceUnit, energyUnit, clock, predicate, format] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let distanceUnit = try arguments.distanceUnit ?? HealthUnit("km")
        let energyUnit = try arguments.energyUnit ?? HealthUnit("kcal")
        let clock = try arguments.clock.timeZone(default: .recorded)
        let predicate = try arguments.predicate.predicate(on: clock)
        let format = try arguments.format ?? .table
        let workouts = try context.store().workoutSummaries(predicate: predicate, timeZone: clock, distanceUnit: distanceUnit, energyUnit: energyUnit)
        let terminal = context.terminal
        let distance = "distance_" + distanceUnit.text
        let energy = "energy_" + energyUnit.text
        switch format {
        case .table:
            guard !workouts.isEmpty else {
                terminal.note("no workouts match")
                return ExitCode.success
            }
            let header = ["start", "activity", "duration", "distance (\(distanceUnit))", "energy (\(energyUnit))", "avg HR", "max HR", "elev. gain (m)", "route points"]
            let rows = workouts.map { w in
                [
                    SummaryOutput.minute(w.start), w.activityName, SummaryOutput.clock(w.duration), SummaryOutput.fixed(w.distance, 2), SummaryOutput.fixed(w.energy, 1),
                    SummaryOutput.fixed(w.heartRateAverage, 0), SummaryOutput.fixed(w.heartRateMaximum, 0), SummaryOutput.fixed(w.elevationGain, 1), String(w.routePoints),
                ]
            }
            SummaryOutput.table(header, rows, rightAligned: Set(2...8), to: terminal)
        case .csv:
            terminal.print(
                SummaryOutput.csv([
                    "start", "end", "activity", "duration_min", distance, energy, "heart_rate_avg_bpm", "heart_rate_max_bpm", "heart_rate_samples", "elevation_gain_m",
                    "elevation_from", "route_points", "source", "uuid",
                ]))
            for w in workouts {
                terminal.print(
                    SummaryOutput.csv([
                        w.start.description, w.end.description, w.activityName, SummaryOutput.number(w.duration / 60, 2), SummaryOutput.number(w.distance, 2),
                        SummaryOutput.number(w.energy, 1), SummaryOutput.number(w.heartRateAverage, 1), SummaryOutput.number(w.heartRateMaximum, 1), String(w.heartRateCount),
                        SummaryOutput.number(w.elevationGain, 1), w.elevationSource?.rawValue, String(w.routePoints), w.source, w.uuid.description,
                    ]))
            }
        case .ndjson:
            for w in workouts {
                terminal.print(
                    SummaryOutput.ndjson([
                        ("start", JSONText.string(w.start.description)), ("end", JSONText.string(w.end.description)), ("activity", JSONText.string(w.activityName)),
                        ("duration_min", SummaryOutput.number(w.duration / 60, 2)), (distance, SummaryOutput.number(w.distance, 2)), (energy, SummaryOutput.number(w.energy, 1)),
                        ("heart_rate_avg_bpm", SummaryOutput.number(w.heartRateAverage, 1)), ("heart_rate_max_bpm", SummaryOutput.number(w.heartRateMaximum, 1)),
                        ("heart_rate_samples", String(w.heartRateCount)), ("elevation_gain_m", SummaryOutput.number(w.elevationGain, 1)),
                        ("elevation_from", w.elevationSource.map { JSONText.string($0.rawValue) }), ("route_points", String(w.routePoints)),
                        ("source", w.source.map(JSONText.string)), ("uuid", JSONText.string(w.uuid.description)),
                    ]))
            }
        }
        terminal.flush()
        return ExitCode.success
    }
}
