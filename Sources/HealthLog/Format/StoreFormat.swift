/// The versions of the on-disk format this build of the library writes, and the newest it
/// reads: the store format (segments, batches, checkpoint) and the layouts of the derived
/// index files, which have versions of their own (a file of another version is rebuilt).
package enum StoreFormat {
    /// The store format version.
    package static var version: Int { Int(FormatConstants.version) }
    /// The layout version of segment indexes (`segments/*.idx`).
    package static var segmentIndexVersion: Int { Int(FormatConstants.segmentIndexVersion) }
    /// The layout version of UUID-index runs (`uuids/*.run`).
    package static var uuidRunVersion: Int { Int(FormatConstants.uuidIndexVersion) }
    /// The layout version of the sync-identifier table (`uuids/sync`).
    package static var syncTableVersion: Int { Int(FormatConstants.syncTableVersion) }
    /// The layout version of the deleted-add index (`uuids/deleted-adds`).
    package static var deletedAddIndexVersion: Int { Int(FormatConstants.deletedAddIndexVersion) }
}
