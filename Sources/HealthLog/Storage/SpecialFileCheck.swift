#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses a store or backup directory that holds a named pipe, a socket or a device under
/// one of the names healthlog uses. Every store file is opened without blocking and refused
/// when it is not a regular file, but derived files (indexes, UUID runs, the sync table)
/// that cannot be opened are rebuilt or done without; checked up front, such a file stops
/// the command before anything reads past it or writes over it.
enum SpecialFileCheck {
    /// Throws ``HealthLogError/Code/unsafeFile`` naming the first file of `directory`,
    /// `directory/segments` or `directory/uuids` whose name healthlog uses (a store's files,
    /// a backup's `manifest`, a segment, an index, a UUID run, or that name with `.tmp`) and that is neither a regular file, a directory nor a symbolic link
    /// (links are refused where they are opened). A folder that does not exist or is not a
    /// directory holds nothing here (it is refused or ignored where it is opened); files
    /// of other names are left to their owner.
    static func refuse(in directory: String) throws {
        let folders: [(path: String, isOurs: (String) -> Bool, isNamedByUser: Bool)] = [
            (directory, { ["meta", "checkpoint", "timelines", "compactions", "lock", "manifest", ScratchDirectory.markerName].contains($0) }, true),
            (directory + "/segments", { SegmentName(fileName: $0) != nil || $0.hasSuffix(".idx") }, false),
            (directory + "/uuids", { $0 == "sync" || $0 == "deleted-adds" || $0.hasSuffix(".run") }, false),
        ]
        for folder in folders {
            var info = stat()
            guard folder.isNamedByUser || (lstat(folder.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) else { continue }
            for entry in try DirectoryListing.typedEntries(in: folder.path, isNamedByUser: folder.isNamedByUser) {
                switch entry.type {
                case S_IFREG, S_IFDIR, S_IFLNK, 0: continue
                default:
                    let name = entry.name.hasSuffix(DurableFile.temporarySuffix) ? String(entry.name.dropLast(DurableFile.temporarySuffix.count)) : entry.name
                    guard folder.isOurs(name) else { continue }
                    throw FileDescriptor.Kind.regularFile.refusal(folder.path + "/" + entry.name, found: entry.type)
                }
            }
        }
    }
}
