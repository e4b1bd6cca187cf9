#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The text of a C `errno` value, as `strerror(3)` spells it.
func describeErrno(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

/// Runs a system call again while it fails with `EINTR`; returns its result or throws
/// a ``HealthLogError`` of the given code naming the operation and path.
@discardableResult
func retryingOnInterrupt<T: BinaryInteger>(
    _ operation: String, path: String, code: HealthLogError.Code = .io, _ call: () -> T
) throws -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        let err = errno
        if err == EINTR { continue }
        throw HealthLogError(code, "\(operation) \(path): \(describeErrno(err))", errno: err)
    }
}
