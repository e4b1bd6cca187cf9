#if !canImport(Darwin)
internal import HealthLog

/// The domain of HealthKit's errors.
public let HKErrorDomain = "com.apple.healthkit"

/// An error from the store, as HealthKit's `HKError`: a code, and a message that names
/// what healthlog found (file, offset, reason).
public struct HKError: CustomNSError, LocalizedError, Hashable, Sendable {
    /// HealthKit's error codes (`HKError.Code.errorInvalidArgument`, raw value 3).
    public enum Code: Int, Sendable, Hashable {
        /// HealthKit's `unknownError` (0).
        case unknownError = 0
        /// HealthKit's `errorHealthDataUnavailable` (1).
        case errorHealthDataUnavailable = 1
        /// HealthKit's `errorHealthDataRestricted` (2).
        case errorHealthDataRestricted = 2
        /// HealthKit's `errorInvalidArgument` (3).
        case errorInvalidArgument = 3
        /// HealthKit's `errorAuthorizationDenied` (4).
        case errorAuthorizationDenied = 4
        /// HealthKit's `errorAuthorizationNotDetermined` (5).
        case errorAuthorizationNotDetermined = 5
        /// HealthKit's `errorDatabaseInaccessible` (6).
        case errorDatabaseInaccessible = 6
        /// HealthKit's `errorUserCanceled` (7).
        case errorUserCanceled = 7
        /// HealthKit's `errorAnotherWorkoutSessionStarted` (8).
        case errorAnotherWorkoutSessionStarted = 8
        /// HealthKit's `errorUserExitedWorkoutSession` (9).
        case errorUserExitedWorkoutSession = 9
        /// HealthKit's `errorRequiredAuthorizationDenied` (10).
        case errorRequiredAuthorizationDenied = 10
        /// HealthKit's `errorNoData` (11).
        case errorNoData = 11
        /// HealthKit's `errorWorkoutActivityNotAllowed` (12).
        case errorWorkoutActivityNotAllowed = 12
        /// HealthKit's `errorDataSizeExceeded` (13).
        case errorDataSizeExceeded = 13
        /// HealthKit's `errorBackgroundWorkoutSessionNotAllowed` (14).
        case errorBackgroundWorkoutSessionNotAllowed = 14
        /// HealthKit's `errorNotPermissibleForGuestUserMode` (15).
        case errorNotPermissibleForGuestUserMode = 15
    }

    /// The code.
    public let code: Code
    /// What happened.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// An error with `code` and the description `userInfo` holds, as Apple's errors are made.
    public init(_ code: Code, userInfo: [String: Any]) {
        self.init(code, userInfo[NSLocalizedDescriptionKey] as? String ?? "")
    }

    /// HealthKit's error domain.
    public static var errorDomain: String { HKErrorDomain }
    /// The code's integer.
    public var errorCode: Int { code.rawValue }
    /// The message, as the localized description.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The message.
    public var errorDescription: String? { message }

    /// The code `unknownError`.
    public static var unknownError: Code { .unknownError }
    /// The code `errorHealthDataUnavailable`.
    public static var errorHealthDataUnavailable: Code { .errorHealthDataUnavailable }
    /// The code `errorInvalidArgument`.
    public static var errorInvalidArgument: Code { .errorInvalidArgument }
    /// The code `errorAuthorizationDenied`.
    public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
    /// The code `errorDatabaseInaccessible`.
    public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
    /// The code `errorNoData`.
    public static var errorNoData: Code { .errorNoData }
    /// The code `errorHealthDataRestricted`.
    public static var errorHealthDataRestricted: Code { .errorHealthDataRestricted }
    /// The code `errorAuthorizationNotDetermined`.
    public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
    /// The code `errorUserCanceled`.
    public static var errorUserCanceled: Code { .errorUserCanceled }
    /// The code `errorAnotherWorkoutSessionStarted`.
    public static var errorAnotherWorkoutSessionStarted: Code { .errorAnotherWorkoutSessionStarted }
    /// The code `errorUserExitedWorkoutSession`.
    public static var errorUserExitedWorkoutSession: Code { .errorUserExitedWorkoutSession }
    /// The code `errorRequiredAuthorizationDenied`.
    public static var errorRequiredAuthorizationDenied: Code { .errorRequiredAuthorizationDenied }
    /// The code `errorWorkoutActivityNotAllowed`.
    public static var errorWorkoutActivityNotAllowed: Code { .errorWorkoutActivityNotAllowed }
    /// The code `errorDataSizeExceeded`.
    public static var errorDataSizeExceeded: Code { .errorDataSizeExceeded }
    /// The code `errorBackgroundWorkoutSessionNotAllowed`.
    public static var errorBackgroundWorkoutSessionNotAllowed: Code { .errorBackgroundWorkoutSessionNotAllowed }
    /// The code `errorNotPermissibleForGuestUserMode`.
    public static var errorNotPermissibleForGuestUserMode: Code { .errorNotPermissibleForGuestUserMode }

    /// `error` as HealthKit reports it: a caller's mistake (bad usage or input, a refused
    /// anchor) is `errorInvalidArgument`; a store that cannot be read (locked, damaged,
    /// needing a key) is `errorDatabaseInaccessible`.
    static func from(_ error: any Error) -> HKError {
        if let error = error as? HKError { return error }
        guard let error = error as? HealthLogError else { return HKError(.unknownError, String(describing: error)) }
        switch error.code.category {
        case .input, .anchor: return HKError(.errorInvalidArgument, error.message)
        case .store, .key: return HKError(.errorDatabaseInaccessible, error.description)
        }
    }
}
#endif
