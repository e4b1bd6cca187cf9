#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a backup may go, checked before anything is written: a directory (or a path that
/// does not exist yet) that is neither the store itself nor inside it. Paths are compared
/// as real paths (`realpath(3)`), so a symbolic link or `..` does not hide the store.
enum BackupTarget {
    /// Refuses `destination` with ``HealthLogError/Code/badUsage`` when it exists and is not
    /// a directory, or when it is the store at `store` or lies inside it.
    static func check(_ destination: String, store: String) throws {
        var info = stat()
        if stat(destination, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw HealthLogError(.badUsage, "\(destination) is not a directory; back up into a new or empty directory or an earlier backup of this store")
        }
        guard let storePath = realPath(store) else {
            throw HealthLogError(.io, "cannot resolve \(store): \(describeErrno(errno))", errno: errno)
        }
        guard let target = resolved(destination) else {
            throw HealthLogError(.io, "cannot resolve \(destination): \(describeErrno(errno))", errno: errno)
        }
        if target == storePath || target.hasPrefix(storePath.hasSuffix("/") ? storePath : storePath + "/") {
            throw HealthLogError(.badUsage, "\(destination) is the store \(store) or lies inside it; back up into a directory outside it")
        }
    }

    /// The real path `path` would have: `realpath(3)` of its nearest existing ancestor,
    /// then the components below it (`.` dropped, `..` taken lexically). `nil` when not
    /// even the working directory resolves.
    static func resolved(_ path: String) -> String? {
        var pending: [Substring] = []
        var existing = path.isEmpty ? "." : path
        while true {
            if let real = realPath(existing) {
                var out = real
                for component in pending.reversed() where !component.isEmpty && component != "." {
                    if component == ".." {
                        out = out.lastIndex(of: "/").map { $0 == out.startIndex ? "/" : String(out[..<$0]) } ?? "/"
                    } else {
                        out += (out.hasSuffix("/") ? "" : "/") + component
                    }
                }
                return out
            }
            var trimmed = Substring(existing)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            guard let slash = trimmed.lastIndex(of: "/") else {
                if existing == "." { return nil }
                pending.append(trimmed)
                existing = "."
                continue
            }
            if slash == trimmed.startIndex, trimmed.count == 1 { return nil }
            pending.append(trimmed[trimmed.index(after: slash)...])
            existing = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        }
    }

    /// `realpath(3)` of `path`, or `nil` when it does not resolve.
    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
