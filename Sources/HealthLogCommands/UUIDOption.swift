import HealthLog

extension SampleUUID {
    /// The value of a `--uuid` option; bad usage when `text` is not a UUID.
    static func uuidOption(_ text: String) throws -> SampleUUID {
        guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "--uuid '\(text)' is not a UUID") }
        return uuid
    }
}
