/// How far a restore has got, for a progress display: the backup's files copied and
/// checked against the manifest, then the new store's batches verified.
public struct RestoreProgress: Sendable, Equatable {
    /// A step of the restore.
    public enum Stage: String, Sendable, Equatable {
        /// Copying the backup's files beside the target (counted in files).
        case copying = "copy"
        /// Verifying the new store (counted in batches).
        case verifying = "verify"
    }

    /// The step under way.
    public var stage: Stage
    /// Units of the step done.
    public var done: Int
    /// Units of the step in all.
    public var total: Int
}
