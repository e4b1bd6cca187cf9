#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The test hook behind the crash tests: `HEALTHLOG_MIRROR_TEST_CRASH=before-commit:K`
/// kills the program with `SIGKILL` in its Kth transaction once the batch and its anchor
/// are written but not committed; `after-commit:K` right after that commit returns. It
/// does nothing when the variable is unset.
struct CrashHook {
    /// Where in a transaction the kill happens.
    enum Moment: String {
        /// Everything written, `COMMIT` not yet issued.
        case beforeCommit = "before-commit"
        /// `COMMIT` returned.
        case afterCommit = "after-commit"
    }

    private let moment: Moment?
    private let transaction: Int

    /// Reads the hook from the environment variable's `value`.
    ///
    /// - Throws: `HealthLogError` with code `badUsage` for a value that is not
    ///   `before-commit:K` or `after-commit:K` with K ≥ 1.
    init(environment value: String?) throws {
        guard let value else {
            moment = nil
            transaction = 0
            return
        }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let moment = Moment(rawValue: String(parts[0])), let number = Int(parts[1]), number >= 1 else {
            throw HealthLogError(.badUsage, "HEALTHLOG_MIRROR_TEST_CRASH must be before-commit:K or after-commit:K, not '\(value)'")
        }
        self.moment = moment
        transaction = number
    }

    /// Kills the process if this is the planned moment of the planned transaction.
    func reached(_ moment: Moment, inTransaction number: Int) {
        if moment == self.moment, number == transaction {
            kill(getpid(), SIGKILL)
        }
    }
}
