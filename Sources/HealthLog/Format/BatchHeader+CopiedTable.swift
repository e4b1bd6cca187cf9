extension BatchHeader {
    /// A sealed header's table as a segment index's sealed copy gives it (see
    /// ``BatchHeader/decode(payload:verifyingChecksum:names:place:shell:copied:)``): its
    /// group entries, and the bytes after them (the dropped list and the origin, as the
    /// table holds them).
    struct CopiedTable {
        /// The group entries, in the table's order.
        var groups: [Group]
        /// The table's bytes after its group entries.
        var tail: [UInt8]
    }
}
