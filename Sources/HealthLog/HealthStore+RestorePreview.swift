extension HealthStore {
    /// What restoring the backup at `backup` into this store's directory, cut at `point`,
    /// would keep and discard. Nothing is written; the backup's files are not checked
    /// against its manifest until the restore itself. A backup of an encrypted store is
    /// read with this handle's secret, as the restore reads it.
    ///
    /// - Throws: as ``restore(from:force:to:decrypting:encryptingWith:progress:)`` does before it copies anything:
    ///   ``HealthLogError/Code/anchorRefused`` for a point the backup cannot name or one
    ///   that keeps no event (unless it is the anchor `0`); ``HealthLogError/Code/keyRequired``
    ///   or ``HealthLogError/Code/wrongKey`` for a backup of an encrypted store.
    public func previewRestore(from backup: String, to point: RestorePoint? = nil) throws -> RestorePreview {
        let source = try BackupSource(backup)
        if let point { try RestoreCut.check(point, against: source) }
        let copy = StoreLayout(directory: backup, keys: layout.keys)
        try Restore.openKeys(of: copy)
        let keptSeq: UInt64
        if let point {
            let cut = try RestoreCut.find(point, in: copy)
            try cut.refuseKeepingNothing(point, backup: backup)
            keptSeq = cut.keptSeq
        } else {
            keptSeq = source.manifest.headSeq
        }
        let history = try HealthStore(directory: backup, options: options, keys: layout.keys).appendHistory()
        var preview = RestorePreview(
            backupHeadSeq: source.manifest.headSeq, keptSeq: keptSeq, kept: history.filter { $0.lastSeq <= keptSeq },
            discarded: history.filter { $0.lastSeq > keptSeq })
        if exists, let meta = try? StoreMeta.read(layout), meta.storeID == source.manifest.storeID,
            let head = try? LogSnapshot(layout, keyless: true).headSeq, head > source.manifest.headSeq
        {
            preview.storeHeadSeq = head
        }
        return preview
    }
}
