// libFuzzer target for the Apple Health import: libxml2's streaming reader as
// the library drives it, the mapping of every element to event lines, the content UUIDs,
// and the importing append. Built by tools/fuzz/run with the library's sources as one
// module; not part of Package.swift.
//
// Each input is written as an export document and imported into an empty store. A thrown
// error is a normal outcome (malformed XML, not an export), but then the store must not
// exist: nothing is written for a refused file. When the import succeeds:
//   - the store verifies sound and holds as many samples as the report added;
//   - importing the same file again adds nothing (the UUIDs come from the content);
//   - every sample replays and decodes into the library's values.
// A trap, a sanitizer report or a failed `check` is a finding.

#if canImport(Glibc)
import Glibc
#endif

/// A directory for this process (HEALTHLOG_FUZZ_DIR, else /dev/shm or /tmp), holding the
/// export file and the store of the current input.
let workDirectory: String = {
    let base = getenv("HEALTHLOG_FUZZ_DIR").map { String(cString: $0) } ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
    var template = Array("\(base)/healthlog-import-fuzz-XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        fatalError("ImportFuzzer: cannot create a directory under \(base)")
    }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}()

/// Whether a `store.import-*` directory (a new store being built) is in the work directory,
/// beside the store.
func leftBeside() -> Bool {
    guard let listing = opendir(workDirectory) else { return false }
    defer { closedir(listing) }
    while let entry = readdir(listing) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name.hasPrefix("store.import-") { return true }
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let exportPath = workDirectory + "/export.xml"
    let storePath = workDirectory + "/store"
    removeTree(storePath)
    let fd = open(exportPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0, write(fd, data, size) == size else { fatalError("ImportFuzzer: cannot write \(exportPath)") }
    close(fd)
    var options = StoreOptions()
    options.sync = false
    let store = HealthStore(directory: storePath, options: options)
    let report: ImportReport
    do {
        report = try store.importExport(at: exportPath)
    } catch {
        check(!store.exists, "a refused import (\(error)) left a store behind")
        check(!leftBeside(), "a refused import (\(error)) left the store it was building")
        return 0
    }
    check(!leftBeside(), "an import left the store it was building beside the target")
    guard store.exists else {
        check(report.summary.added == 0, "the report says \(report.summary.added) added but there is no store")
        return 0
    }
    do {
        let verified = try store.verify()
        check(verified.isSound, "the imported store is damaged: \(verified.problems.first ?? "")")
        let result = try store.result(ReplayRequest())
        check(result.addedSamples.count == report.summary.added, "replay holds \(result.addedSamples.count) samples, the report added \(report.summary.added)")
        let again = try store.importExport(at: exportPath)
        check(again.summary.added == 0, "importing the same file again added \(again.summary.added)")
    } catch {
        check(false, "an imported store fails to read: \(error)")
    }
    return 0
}
