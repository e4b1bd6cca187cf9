/// Salvage of a damaged store without a backup.
extension HealthStore {
    /// Copies every readable event of this store, damaged or not, into a new store at
    /// `destination` (missing or an empty directory), like `sqlite3 .recover`: same store
    /// identity, every event under its original sequence number, each lost range recorded
    /// as a timeline gap, so anchors keep working and an anchor inside a lost range is
    /// refused with the advice to resync. This store is only read. The new store is private
    /// (0700/0600), its segments cut at ``StoreOptions/segmentBytes``, indexed and verified
    /// before it is renamed into place. An encrypted store needs this handle's key and
    /// stays encrypted: the new store's batches are sealed again for their new places and
    /// its key slots are copied, so the same passphrases open it.
    ///
    /// ```swift
    /// let report = try HealthStore(directory: "damaged.store").recover(to: "salvaged.store")
    /// for range in report.lost { print("lost \(range.lowerBound)-\(range.upperBound)") }
    /// ```
    ///
    /// - Returns: what was recovered, the lost sequence ranges and the unreadable byte ranges.
    /// - Throws: ``HealthLogError/Code/badUsage`` when `destination` is not empty or lies in
    ///   this store; ``HealthLogError/Code/noStore`` when there is no store here;
    ///   ``HealthLogError/Code/corrupt`` when the store's identity cannot be told (meta and
    ///   every segment header unreadable); ``HealthLogError/Code/keyRequired`` or
    ///   ``HealthLogError/Code/wrongKey`` when the store is encrypted and this handle has
    ///   no key or the wrong one (nothing is written); ``HealthLogError/Code/io`` when
    ///   writing fails.
    public func recover(to destination: String) throws -> RecoverReport {
        try Recover(source: layout, destination: destination, segmentBytes: options.segmentBytes, lockTimeout: options.lockTimeout).run()
    }
}
