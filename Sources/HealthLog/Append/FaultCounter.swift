#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the points of a write that a ``FaultPlan`` names and carries out the plan: kills
/// the process at the chosen occurrence, or lets segment writes store only so many bytes.
/// With an empty plan (real use) it only counts.
final class FaultCounter {
    private let plan: FaultPlan
    private var hits: [FaultPlan.Point: Int] = [:]
    private var bytesWritten = 0

    /// A counter for `plan`.
    init(_ plan: FaultPlan) {
        self.plan = plan
    }

    /// Marks that the write reached `point`; kills the process when the plan says so.
    func reach(_ point: FaultPlan.Point) {
        hits[point, default: 0] += 1
        if let planned = plan.kill, planned.point == point, hits[point] == planned.occurrence {
            kill(getpid(), SIGKILL)
        }
    }

    /// Writes `bytes` at `offset` of `fd`, or fails the way ``FaultPlan/failWritesAfterBytes``
    /// asks: the bytes that still fit, then `ENOSPC`.
    func write(_ bytes: [UInt8], to fd: FileDescriptor, at offset: Int) throws {
        if let limit = plan.failWritesAfterBytes, bytesWritten + bytes.count > limit {
            let fits = max(0, limit - bytesWritten)
            try fd.write(Array(bytes[0..<fits]), at: offset)
            bytesWritten += fits
            throw HealthLogError(.io, "cannot write \(fd.path): \(describeErrno(ENOSPC))", errno: ENOSPC)
        }
        try fd.write(bytes, at: offset)
        bytesWritten += bytes.count
    }

    /// `fdatasync` of `fd`, or the failure ``FaultPlan/failSync`` asks for.
    func syncData(_ fd: FileDescriptor) throws {
        if plan.failSync {
            throw HealthLogError(.syncFailed, "cannot fdatasync \(fd.path): \(describeErrno(EIO))", errno: EIO)
        }
        try fd.syncData()
    }
}
