// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "healthlog",
    products: [
        .library(name: "HealthLog", targets: ["HealthLog"]),
        // Apple Health import: links libxml2 and libarchive, which the core never loads.
        .library(name: "HealthLogImport", targets: ["HealthLogImport"]),
        // HealthKit's API over a store, so code written for HealthKit builds and runs on Linux
        // (empty on Apple platforms, where the system framework is the one to use).
        .library(name: "HealthKit", targets: ["HealthKit"]),
        .executable(name: "healthlog", targets: ["HealthLogCLI"]),
        // The worker `healthlog import` runs, so no other command loads the import's libraries.
        .executable(name: "healthlog-import", targets: ["HealthLogImportWorker"]),
        // Samples/MirrorSQLite: the sample program that keeps a SQLite mirror of a store in
        // sync by anchors, built by `swift build`.
        .executable(name: "healthlog-mirror", targets: ["HealthLogMirror"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // libsodium, for the SHA-256 digests of backup manifests (small: loading it costs a
        // process start nothing measurable, where libcrypto cost about 0.5 ms).
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // keyutils, for the user's kernel keyring where `healthlog unlock` keeps a store's keys
        // for a while (Linux only).
        .systemLibrary(
            name: "CKeyutils",
            pkgConfig: "libkeyutils",
            providers: [.apt(["libkeyutils-dev"])]
        ),
        // CRC-32C by the CPU's instruction (SSE4.2, ARMv8 CRC), with a table fallback.
        .target(name: "CCRC32C"),
        // renameat2(2) / renamex_np(2): a rename that never replaces (an import's new store
        // put at its path) and one that exchanges (a restore over an existing store).
        .target(name: "CAtomicRename"),
        // memmem(3), which Swift's C library module leaves out (a GNU extension on Linux).
        .target(name: "CByteSearch"),
        // sync_file_range(2), which Swift's C library module leaves out (a GNU extension on
        // Linux): an append starts writing its segment back while it goes on.
        .target(name: "CWriteback"),
        // sched_getcpu(3) and processor affinity, which Swift's C library module leaves out
        // (GNU extensions on Linux): a helper thread starts on another processor than its
        // caller's.
        .target(name: "CThreadPlacement"),
        // OpenSSL's libcrypto: AES-256-GCM for an encrypted store's units on a CPU without
        // AES-NI (libsodium's needs it), and the import's content-derived UUIDs (its SHA-256
        // uses the CPU's SHA extensions).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
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
        .systemLibrary(
            name: "CSQLite",
            path: "Samples/MirrorSQLite/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "HealthLog",
            dependencies: [
                "CAtomicRename", "CByteSearch", "CCRC32C", "CCrypto", "CLZ4", "CSodium", "CThreadPlacement", "CWriteback", .target(name: "CKeyutils", condition: .when(platforms: [.linux])),
            ]),
        // The import's parse and mapping threads touch their own class instances' properties
        // per attribute; release builds leave out the dynamic exclusivity checks there (3% of
        // an import's CPU).
        // Debug builds, which the tests run, keep them.
        .target(
            name: "HealthLogImport", dependencies: ["HealthLog", "CCrypto", "CLibXML2", "CArchive", "CLZ4", "CAtomicRename"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "HealthLogCommands", dependencies: ["HealthLog"]),
        .target(name: "HealthKit", dependencies: ["HealthLog"]),
        // tools/bench-healthkit's program: the HealthKit layer timed against HealthLog.
        .executableTarget(name: "HealthKitBench", dependencies: ["HealthKit", "HealthLog"], path: "Tests/HealthKitBench"),
        .target(name: "CAllocator"),
        .executableTarget(name: "HealthLogCLI", dependencies: ["CAllocator", "HealthLogCommands"]),
        .target(name: "HealthLogImportWorkerKit", dependencies: ["HealthLog", "HealthLogImport"]),
        .executableTarget(name: "HealthLogImportWorker", dependencies: ["CAllocator", "HealthLogImportWorkerKit"]),
        // The worker's test-only twin, which takes a fault plan; run by the fault tool's import.
        .executableTarget(name: "HealthLogImportFaultWorker", dependencies: ["HealthLogImportWorkerKit"], path: "Tests/HealthLogImportFaultWorker"),
        // The test-only twin of `healthlog` that injects the faults HEALTHLOG_TEST_FAULT names;
        // built by `swift build` and run by the CLI tests, but not a product.
        .executableTarget(name: "HealthLogFaultTool", dependencies: ["HealthLog", "HealthLogCommands"], path: "Tests/HealthLogFaultTool"),
        // A user's program: no `package` access, so it builds against the public API only.
        .executableTarget(name: "HealthLogMirror", dependencies: ["HealthLog", "CSQLite"], path: "Samples/MirrorSQLite/Sources", packageAccess: false),
        // Apps' HealthKit code, written as iOS apps write it and built unchanged: against the
        // `HealthKit` module on Linux, against Apple's framework elsewhere. One is in Swift 5
        // language mode, so both modes are built.
        .executableTarget(
            name: "GlucoseSync", dependencies: [.target(name: "HealthKit", condition: .when(platforms: [.linux]))],
            path: "Samples/GlucoseSync/Sources", swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "ActivityChart", dependencies: [.target(name: "HealthKit", condition: .when(platforms: [.linux]))],
            path: "Samples/ActivityChart/Sources"),
        .executableTarget(
            name: "HealthDataClient", dependencies: [.target(name: "HealthKit", condition: .when(platforms: [.linux]))],
            path: "Samples/HealthDataClient/Sources"),
        // tools/sync-bench: paging through a store in process, against SQLite's C API on the
        // yardstick's database; public API only, built in release by the script, run by no test.
        .executableTarget(name: "HealthLogSyncBench", dependencies: ["HealthLog", "CSQLite"], path: "tools/SyncBench", packageAccess: false),
        .target(name: "HealthLogTestSupport", path: "Tests/HealthLogTestSupport"),
        .testTarget(name: "HealthLogTests", dependencies: ["HealthLog", "CAllocator", "CAtomicRename", "CCRC32C", "CThreadPlacement", "CWriteback", "HealthLogTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "HealthLogImportTests", dependencies: ["HealthLog", "HealthLogImport", "HealthLogTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "HealthLogCLITests",
            dependencies: [
                "HealthLog", "HealthLogCLI", "HealthLogImportWorker", "HealthLogFaultTool", "HealthLogImportFaultWorker", "HealthLogTestSupport",
            ]),
        .testTarget(name: "HealthKitTests", dependencies: ["HealthKit", "HealthLog", "HealthLogTestSupport"]),
        .testTarget(name: "HealthLogMirrorTests", dependencies: ["HealthLog", "HealthLogMirror", "HealthLogTestSupport"]),
        .testTarget(
            name: "HealthKitSamplesTests",
            dependencies: ["HealthLog", "HealthLogImport", "HealthLogTestSupport", "GlucoseSync", "ActivityChart", "HealthDataClient"]),
    ],
    swiftLanguageModes: [.v6]
)

// The HealthKit samples are built as apps build, without the project's upcoming features.
let appSamples = ["GlucoseSync", "ActivityChart", "HealthDataClient"]
for target in package.targets where target.type != .system && !(["CAtomicRename", "CCRC32C"] + appSamples).contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
