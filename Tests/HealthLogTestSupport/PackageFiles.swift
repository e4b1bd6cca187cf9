import Foundation

/// Paths in this package's source tree, computed once from this file's place in it, so a
/// test finds the sources, a fixture of any test target or a build product wherever the
/// test's own file sits.
public enum PackageFiles {
    /// The package's root directory, the one holding `Package.swift`.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The path of `relative` (e.g. `Sources/HealthLog`) below the package's root.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The store an earlier build wrote with index version 1 segment indexes
    /// (`Tests/HealthLogTests/Fixtures/IndexVersion1/store`, from commit c450f0c; see the
    /// PROVENANCE.md beside it). Copy it before writing to it.
    public static let indexVersion1Store = path("Tests/HealthLogTests/Fixtures/IndexVersion1/store")

    /// The directory of the public Apple Health sample exports
    /// (`Tests/HealthLogImportTests/Fixtures/AppleHealth`; see the PROVENANCE.md there).
    public static let appleHealthExports = path("Tests/HealthLogImportTests/Fixtures/AppleHealth")

    /// The path of the Apple Health export fixture `name` (e.g. `healthkit-to-sqlite.xml`).
    public static func appleHealthExport(_ name: String) -> String { appleHealthExports + "/" + name }
}
