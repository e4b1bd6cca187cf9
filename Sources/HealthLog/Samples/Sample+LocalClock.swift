extension Sample {
    /// The clock of the sample's local time (``LocalClock``): the zone its `HKTimeZone`
    /// metadata names, else the offset its start was recorded with.
    public var localClock: LocalClock {
        guard case .string(let zone)? = metadata[LocalClock.metadataKey] else { return LocalClock(start: start, zone: nil) }
        return LocalClock(start: start, zone: zone)
    }

    /// When the sample starts, in its local time: the same instant, written with the
    /// offset of its ``localClock``.
    public var localStart: Timestamp { localClock.local(start) }
}
