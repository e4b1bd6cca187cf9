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
        // Three calls, not a list of folders: a list of tuples with closures has its type
        // made at run time, about 38,000 instructions of every command that opens a store.
        try refuse(in: directory, isNamedByUser: true) { name in
            switch name {
            case "meta", "checkpoint", "timelines", "compactions", "lock", "manifest", ScratchDirectory.markerName: true
            default: false
            }
        }
        try refuse(in: directory + "/segments", isNamedByUser: false) { SegmentName(fileName: $0) != nil || $0.hasSuffix(".idx") }
        try refuse(in: directory + "/uuids", isNamedByUser: false) { $0 == "sync" || $0 == "deleted-adds" || $0.hasSuffix(".run") }
    }

    /// Refuses the first entry of `folder` whose name (without `.tmp`) `isOurs` and that is
    /// neither a regular file, a directory nor a symbolic link; a folder not named by the
    /// user that is missing or no directory is passed over.
    private static func refuse(in folder: String, isNamedByUser: Bool, isOurs: (String) -> Bool) throws {
        var info = stat()
        guard isNamedByUser || (lstat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) else { return }
        for entry in try DirectoryListing.typedEntries(in: folder, isNamedByUser: isNamedByUser) {
            switch entry.type {
            case S_IFREG, S_IFDIR, S_IFLNK, 0: continue
            default:
                let name = entry.name.hasSuffix(DurableFile.temporarySuffix) ? String(entry.name.dropLast(DurableFile.temporarySuffix.count)) : entry.name
                guard isOurs(name) else { continue }
                throw FileDescriptor.Kind.regularFile.refusal(folder + "/" + entry.name, found: entry.type)
            }
        }
    }
}
