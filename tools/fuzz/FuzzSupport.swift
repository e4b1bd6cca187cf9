// What every libFuzzer target in tools/fuzz shares; tools/fuzz/run compiles it into each.

#if canImport(Glibc)
import Glibc
#endif

/// Reports a broken property and aborts, so libFuzzer saves the input.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let report = Array("fuzz target: property violated: \(message())\n".utf8)
        _ = report.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        abort()
    }
}

/// Removes `path` and everything under it (two levels are all a store has).
func removeTree(_ path: String) {
    if let d = opendir(path) {
        var names: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(d)
        for name in names { removeTree(path + "/" + name) }
        rmdir(path)
    } else {
        unlink(path)
    }
}
