import Foundation

/// The regular files under a directory: for scans of what a store or backup holds, and for
/// byte-for-byte comparisons of a store before and after a command.
public enum DirectoryFiles {
    /// The paths, relative to `directory`, of every regular file under it, sorted; none when
    /// `directory` is missing.
    public static func names(_ directory: String) -> [String] {
        (FileManager.default.subpaths(atPath: directory) ?? []).sorted().filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Every regular file under `directory` (relative path) with its bytes.
    public static func contents(_ directory: String) throws -> [(String, [UInt8])] {
        try names(directory).map { ($0, try ByteSurgery.read(directory + "/" + $0)) }
    }

    /// Every regular file under `directory`, its bytes by relative path.
    public static func byName(_ directory: String) throws -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: try contents(directory))
    }
}
