import HealthLog

/// `healthlog route`: a workout's route, or every route of a date range, as GPX, GeoJSON or CSV.
enum RouteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "route",
        abstract: "Write a workout's route (or every route of a date range) as GPX, GeoJSON or CSV.",
        discussion:
            "Give a workout's UUID (its routes, one GPX track each) or a route's own, or --start and --end for every route that overlaps the range, in one file. Every point keeps its time, latitude, longitude, elevation, speed, course and horizontal and vertical accuracies as imported. GPX 1.1 puts speed, course, hAcc and vAcc in each point's extensions, as Apple's export does; GeoJSON is a FeatureCollection with a LineString feature per route (coordinates lon, lat, elevation; a Point for a route of one point, a null geometry for one without points) and the per-point times, speeds, courses and accuracies as arrays in its properties (coordTimes, …); CSV is a header row and one row per point. A UUID no live sample has, a workout without a route, or a range without one writes nothing and exits 2."
    )

    struct Options: OptionGroup {
        let uuid = Positional("<uuid>", help: "The UUID of a workout (or of a route).", required: false, completion: .none) { texts in
            guard texts.count <= 1 else { throw HealthLogError(.badUsage, "route takes one UUID, not \(texts.count)") }
            return try texts.first.map { text in
                guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "'\(text)' is not a UUID: route takes a workout's UUID") }
                return uuid
            }
        }
        let start = Option(
            "--start", "date", help: "Without a UUID: every route that overlaps the range starting here (an ISO 8601 instant, or a date meaning its midnight UTC).",
            parse: { try PredicateOptions.date($0, "--start") })
        let end = Option("--end", "date", help: "Without a UUID: the end of the range (exclusive).", parse: { try PredicateOptions.date($0, "--end") })
        let format = Option(
            "--format", "format", help: "gpx (the default), geojson or csv.", synopsis: "--format gpx|geojson|csv",
            completion: .choices(RouteDocument.Format.allCases.map(\.rawValue))
        ) { text in
            guard let format = RouteDocument.Format(rawValue: text.lowercased()) else {
                throw HealthLogError(.badUsage, "--format must be gpx, geojson or csv, not '\(text)'")
            }
            return format
        }
        let output = Option(
            "--output", "file", short: "-o", help: "The file to write (mode 0600, replaced atomically) instead of standard output.", synopsis: "-o <file>",
            completion: .file, parse: { $0 })

        var members: [any OptionMember] { [uuid, start, end, format, output] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let uuid = try arguments.uuid
        let start = try arguments.start
        let end = try arguments.end
        let format = try arguments.format ?? .gpx
        let output = try arguments.output
        if let output { try PathKind.expectFile(output, "-o") }
        if uuid != nil, start != nil || end != nil {
            throw HealthLogError(.badUsage, "give a workout's UUID or --start/--end, not both")
        }
        if let start, let end, start > end {
            throw HealthLogError(.badUsage, "--start \(arguments.text(\.start)!) is after --end \(arguments.text(\.end)!)")
        }
        let store = try context.store()
        let routes: [WorkoutRouteSample]
        if let uuid {
            routes = try store.routes(for: uuid)
        } else {
            guard start != nil || end != nil else {
                throw HealthLogError(.badUsage, "route needs a workout's UUID (healthlog route UUID) or a range (healthlog route --start DATE --end DATE)")
            }
            routes = try store.routes(matching: .samples(withStart: start, end: end))
            guard !routes.isEmpty else { throw HealthLogError(.badInput, "no live workout route overlaps the range; no file written") }
        }
        let document = RouteDocument(routes: routes, format: format)
        let points = String(counting: routes.reduce(0) { $0 + $1.locations.count }, "point")
        if let output {
            try document.write(to: output)
            context.terminal.summary("route: \(points) of \(String(counting: routes.count, "route")) written to \(output)")
        } else {
            let terminal = context.terminal
            try document.write { text in
                var text = text
                text.withUTF8 { terminal.write(UnsafeRawBufferPointer($0)) }
            }
            terminal.flush()
        }
        return ExitCode.success
    }
}
