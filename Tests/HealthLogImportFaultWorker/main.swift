#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLogImportWorkerKit

// The test-only twin of `healthlog-import`, run by the fault tool's `import`: the same
// worker, taking the fault plan `--fault` passes. Built for the fault tests; not a product.
// With `HEALTHLOG_TEST_PEAK_RSS=FILE`, it writes its peak resident memory (the `VmHWM`
// line of /proc/self/status) to FILE as it exits, for the tests that bound it.
if getenv("HEALTHLOG_TEST_PEAK_RSS") != nil {
    atexit {
        guard let path = getenv("HEALTHLOG_TEST_PEAK_RSS") else { return }
        let status = open("/proc/self/status", O_RDONLY)
        guard status >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = read(status, &bytes, bytes.count)
        close(status)
        guard count > 0 else { return }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return }
        let out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard out >= 0 else { return }
        let data = Array((line + "\n").utf8)
        _ = write(out, data, data.count)
        close(out)
    }
}
ImportWorkerMain.run(Array(CommandLine.arguments.dropFirst()), acceptsFaults: true)
