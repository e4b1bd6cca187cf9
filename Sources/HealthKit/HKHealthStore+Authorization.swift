#if !canImport(Darwin)
/// Whether an app may save a type, as HealthKit's `HKAuthorizationStatus`.
public enum HKAuthorizationStatus: Int, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Saving denied.
    case sharingDenied = 1
    /// Saving allowed: every type, on Linux.
    case sharingAuthorized = 2
}

/// Whether asking for authorization would show a sheet, as HealthKit's
/// `HKAuthorizationRequestStatus`.
public enum HKAuthorizationRequestStatus: Int, Sendable {
    /// Unknown.
    case unknown = 0
    /// A request would ask.
    case shouldRequest = 1
    /// Nothing to ask: every request, on Linux.
    case unnecessary = 2
}

/// How often background deliveries may come, as HealthKit's `HKUpdateFrequency`.
public enum HKUpdateFrequency: Int, Sendable {
    /// At once.
    case immediate = 1
    /// At most hourly.
    case hourly = 2
    /// At most daily.
    case daily = 3
    /// At most weekly.
    case weekly = 4
}

/// Authorization and background delivery: documented no-ops. A store on disk has no
/// per-app permissions (the file's own permissions guard it), so every request completes
/// as granted and every type reads as authorized; a long-running query already sees
/// every change any process appends, so background delivery completes with success.
extension HKHealthStore {
    /// Completes with `true`: every type is readable and writable.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?, completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        background { completion(true, nil) }
    }

    /// Returns at once: every type is readable and writable.
    public func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {}

    /// `.sharingAuthorized`, for every type.
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus { .sharingAuthorized }

    /// Completes with `.unnecessary`: there is nothing to ask.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        background { completion(.unnecessary, nil) }
    }

    /// `.unnecessary`: there is nothing to ask.
    public func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        .unnecessary
    }

    /// Completes with success; long-running queries see every change without it.
    public func enableBackgroundDelivery(
        for type: HKObjectType, frequency: HKUpdateFrequency, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        background { completion(true, nil) }
    }

    /// Returns at once.
    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {}

    /// Completes with success.
    public func disableBackgroundDelivery(for type: HKObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        background { completion(true, nil) }
    }

    /// Completes with success.
    public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        background { completion(true, nil) }
    }

    /// The earliest date samples may have: any.
    public func earliestPermittedSampleDate() -> Date { .distantPast }
}
#endif
