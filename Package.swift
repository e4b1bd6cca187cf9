// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "healthlog",
    products: [
        .library(name: "HealthLog", targets: ["HealthLog"]),
        .executable(name: "healthlog", targets: ["HealthLogCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(name: "HealthLog", dependencies: ["CLZ4"]),
        .executableTarget(name: "HealthLogCLI", dependencies: ["HealthLog"]),
        .testTarget(name: "HealthLogTests", dependencies: ["HealthLog"]),
        .testTarget(name: "HealthLogCLITests", dependencies: ["HealthLog", "HealthLogCLI"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
