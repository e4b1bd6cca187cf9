import HealthLog

/// Writes the `HealthKit` module's identifiers, category value enums, metadata keys and
/// workout activity types from healthlog's catalog: the text of
/// `Sources/HealthKit/HKCatalog.generated.swift`.
enum CatalogSource {
    /// The file's path from the package's root.
    static let path = "Sources/HealthKit/HKCatalog.generated.swift"

    /// The file's text.
    static func text() -> String {
        var out = """
            // Generated from healthlog's catalog (Sources/HealthLog/Catalog) by tools/generate-healthkit;
            // do not edit: change the catalog and run the tool.
            #if !canImport(Darwin)

            """
        out += identifiers("HKQuantityTypeIdentifier", HealthKitCatalog.quantityTypes.map(\.name).sorted())
        out += identifiers("HKCategoryTypeIdentifier", HealthKitCatalog.categoryTypes.map(\.name))
        out += identifiers("HKCorrelationTypeIdentifier", HealthKitCatalog.names(withPrefix: "HKCorrelationTypeIdentifier"))
        out += identifiers("HKCharacteristicTypeIdentifier", HealthKitCatalog.names(withPrefix: "HKCharacteristicTypeIdentifier"))
        for set in HealthKitCatalog.categoryValueSets {
            out += valueEnum(set.prefix, set.values, raw: "Int")
        }
        out += valueEnum("HKWorkoutActivityType", HealthKitCatalog.workoutActivityTypes, raw: "UInt")
        out += "\nextension HKWorkoutActivityType {\n"
        out += "    /// The activity types by name after `HKWorkoutActivityType`.\n"
        out += "    static let byName: [String: HKWorkoutActivityType] = [\n"
        for entry in HealthKitCatalog.workoutActivityTypes { out += "        \"\(entry.name)\": .\(swiftName(entry.name)),\n" }
        out += "    ]\n\n    /// The name after `HKWorkoutActivityType` of each activity type.\n"
        out += "    static let names: [HKWorkoutActivityType: String] = Dictionary(uniqueKeysWithValues: byName.map { ($0.value, $0.key) })\n}\n"
        out += "\n"
        for key in HealthKitCatalog.metadataKeys.sorted(by: { $0.name < $1.name }) {
            out += "/// The metadata key `\(key.key)`.\npublic let HKMetadataKey\(key.name) = \"\(key.key)\"\n"
        }
        return out + "#endif\n"
    }

    /// An identifier type's static members for the short `names`.
    private static func identifiers(_ type: String, _ names: [String]) -> String {
        var out = "\nextension \(type) {\n"
        for name in names {
            out += "    /// `\(type)\(name)`.\n    public static let \(swiftName(name)) = \(type)(rawValue: \"\(type)\(name)\")\n"
        }
        return out + "}\n"
    }

    /// An enum of integer constants; a later name for an integer already listed becomes an
    /// alias of the first.
    private static func valueEnum(_ type: String, _ values: [(name: String, value: Int)], raw: String) -> String {
        var out = "\n/// `\(type)…` constants.\npublic enum \(type): \(raw), Sendable, CaseIterable {\n"
        var first: [Int: String] = [:]
        var aliases: [(String, String)] = []
        for entry in values {
            if let earlier = first[entry.value] {
                aliases.append((swiftName(entry.name), earlier))
            } else {
                first[entry.value] = swiftName(entry.name)
                out += "    /// `\(type)\(entry.name)`.\n    case \(swiftName(entry.name)) = \(entry.value)\n"
            }
        }
        for (alias, earlier) in aliases {
            out += "    /// `\(type)\(alias.prefix(1).uppercased() + alias.dropFirst())`, the same value as ``\(earlier)``.\n"
            out += "    public static var \(alias): \(type) { .\(earlier) }\n"
        }
        return out + "}\n"
    }

    /// A constant's name as Swift imports it: the leading capitals in lower case, but for
    /// the capital that starts the next word (`UVExposure` → `uvExposure`, `VO2Max` → `vo2Max`).
    static func swiftName(_ name: String) -> String {
        let characters = Array(name)
        var run = 0
        while run < characters.count, characters[run].isUppercase { run += 1 }
        if run > 1, run < characters.count, characters[run].isLowercase { run -= 1 }
        return String(characters[..<run]).lowercased() + String(characters[run...])
    }
}
