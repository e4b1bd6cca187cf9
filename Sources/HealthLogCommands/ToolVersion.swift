import HealthLog

/// What `healthlog --version` prints: the tool's version and the format versions of the
/// library it was built with.
enum ToolVersion {
    /// The tool's version.
    static let number = "0.9.0"

    /// `healthlog 0.9.0 (store format 1, index versions: segment index 2, UUID runs 4, sync table 2,
    /// deleted-add index 3)`.
    static var line: String {
        "healthlog \(number) (store format \(StoreFormat.version), index versions: segment index \(StoreFormat.segmentIndexVersion), "
            + "UUID runs \(StoreFormat.uuidRunVersion), sync table \(StoreFormat.syncTableVersion), "
            + "deleted-add index \(StoreFormat.deletedAddIndexVersion))"
    }
}
