#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What writers killed mid-write leave behind: the temporary files of replacements they
/// never renamed into place (``DurableFile``, a UUID-run merge, a backup's copies), each
/// named `<one of the store's own file names>.tmp`. Nothing reads them, so the next writer
/// removes them, and a store never holds more than its events and their indexes need.
///
/// Only these names are removed; any other file, in any directory of the store, is left
/// alone. (Segments and UUID runs a killed writer left are no debris: recovery cuts the
/// torn tail, and ``UUIDRunSet`` keeps or drops runs by the chain they form.)
enum Debris {
    /// Removes the temporary files of `layout`: `meta.tmp` and `checkpoint.tmp`; in
    /// `segments/`, a segment's or a segment index's name followed by `.tmp`; in `uuids/`,
    /// a run's name, `sync` or `deleted-adds` followed by `.tmp`; in `keys/`, a key slot's
    /// name followed by `.tmp`. Writer-only: call it holding the writer
    /// lock, so no live writer's temporary is among them. `unlink(2)` never follows a
    /// symbolic link, so a planted one is removed, not its target.
    ///
    /// - Returns: how many files were removed.
    /// - Throws: when a directory cannot be listed (``HealthLogError/Code/unsafeFile`` when
    ///   it is a symbolic link), or a temporary file cannot be removed.
    @discardableResult
    static func remove(_ layout: StoreLayout) throws -> Int {
        var removed = 0
        let directories: [(path: String, isOurs: (String) -> Bool, isNamedByUser: Bool)] = [
            (layout.directory, { $0 == "meta" || $0 == "checkpoint" }, true),
            (layout.segments, isSegmentFileName, false),
            (layout.directory + "/uuids", { $0 == "sync" || $0 == "deleted-adds" || UUIDRun.range(ofFileName: $0) != nil }, false),
            (layout.keySlots, { KeySlot.id(fileName: $0) != nil }, false),
        ]
        for directory in directories {
            for name in try DirectoryListing.names(in: directory.path, isNamedByUser: directory.isNamedByUser) where name.hasSuffix(DurableFile.temporarySuffix) {
                guard directory.isOurs(String(name.dropLast(DurableFile.temporarySuffix.count))) else { continue }
                let path = directory.path + "/" + name
                if unlink(path) != 0, errno != ENOENT {
                    let err = errno
                    throw HealthLogError(.io, "cannot remove the leftover \(path): \(describeErrno(err))", errno: err)
                }
                removed += 1
            }
        }
        return removed
    }

    /// Whether `name` is a segment's file name or its sidecar index's.
    private static func isSegmentFileName(_ name: String) -> Bool {
        if SegmentName(fileName: name) != nil { return true }
        guard name.hasSuffix(".idx") else { return false }
        return SegmentName(fileName: String(name.dropLast(".idx".count)) + ".log.lz4") != nil
    }
}
