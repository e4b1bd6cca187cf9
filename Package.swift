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
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        .target(name: "HealthLog", dependencies: ["CLZ4", "CLibXML2", "CArchive"]),
        .executableTarget(name: "HealthLogCLI", dependencies: ["HealthLog"]),
        .testTarget(name: "HealthLogTests", dependencies: ["HealthLog"], exclude: ["Fixtures"]),
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
