import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    /// The directory's path.
    let path: String

    /// Creates a new, empty directory.
    init() throws {
        path = NSTemporaryDirectory() + "healthlog-mirror-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
