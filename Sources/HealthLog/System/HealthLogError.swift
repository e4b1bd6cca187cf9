/// The one error type of the HealthLog library: a code, a message that names where the
/// problem is (file and byte offset, or input line and field), and the `errno` when a
/// system call failed.
///
/// Codes are an extensible set of values rather than an exhaustive enum, so new codes
/// can be added without breaking clients that switch over them. Each code belongs to a
/// ``Category``, which the command-line tool maps to its exit code.
public struct HealthLogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `"badInput"`.
        public let rawValue: String
        /// Which broad category (and so which exit code) the code belongs to.
        public let category: Category

        /// Creates a code; unknown raw values fall in the ``Category/store`` category.
        public init(rawValue: String) {
            self.rawValue = rawValue
            self.category = Code.known[rawValue] ?? .store
        }

        init(_ rawValue: String, _ category: Category) {
            self.rawValue = rawValue
            self.category = category
        }

        /// The raw value.
        public var description: String { rawValue }

        /// Invalid event input: the message names the line and the field.
        public static let badInput = Code("badInput", .input)
        /// Invalid arguments or options.
        public static let badUsage = Code("badUsage", .input)
        /// An anchor that is malformed, from another store, or ahead of the store's head.
        public static let anchorRefused = Code("anchorRefused", .anchor)
        /// Damaged store data: the message names the file and byte offset.
        public static let corrupt = Code("corrupt", .store)
        /// A system call failed (permissions, disk full, …).
        public static let io = Code("io", .store)
        /// `fsync` failed: the append was rolled back, and its writer refuses further writes.
        public static let syncFailed = Code("syncFailed", .store)
        /// There is no store at the given path, for a command that reads.
        public static let noStore = Code("noStore", .store)
        /// Another process holds the writer lock for longer than the timeout.
        public static let locked = Code("locked", .store)
        /// The store was written by a newer format version than this build reads.
        public static let unsupportedVersion = Code("unsupportedVersion", .store)
        /// A store file or directory that healthlog refuses to use: a symbolic link, not a
        /// regular file (or directory), another user's, or a store directory that group or
        /// others may access. The message names the path and says how to fix it.
        public static let unsafeFile = Code("unsafeFile", .store)
        /// The store is encrypted and no secret was given (the message says how to give one).
        public static let keyRequired = Code("keyRequired", .key)
        /// The store is encrypted and the secret given opens none of its key slots.
        public static let wrongKey = Code("wrongKey", .key)

        private static let known: [String: Category] = Dictionary(
            uniqueKeysWithValues: [badInput, badUsage, anchorRefused, corrupt, io, syncFailed, noStore, locked, unsupportedVersion, unsafeFile, keyRequired, wrongKey]
                .map { ($0.rawValue, $0.category) })
    }

    /// The broad category of a failure; the CLI turns it into an exit code.
    public enum Category: Sendable, Hashable {
        /// Store or I/O failure (exit code 1).
        case store
        /// Bad usage or bad input (exit code 2).
        case input
        /// Anchor refused (exit code 3).
        case anchor
        /// An encrypted store's secret missing or wrong (exit code 4); never damage.
        case key
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence naming the problem and where it is.
    public var message: String
    /// The C `errno` when a system call failed, else `nil`.
    public var errno: Int32?

    /// Creates an error with a code and message.
    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// The message.
    public var description: String { message }
}
