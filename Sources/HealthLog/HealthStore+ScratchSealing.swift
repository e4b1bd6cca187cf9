extension HealthStore {
    /// The cipher that seals the scratch files a command writes for this store (an
    /// import's event spill): this process's ``ScratchCipher`` for an encrypted store, and
    /// for one whose `meta` cannot be read (it may be encrypted); `nil` for a plaintext
    /// store and where none exists yet (the append creates a plaintext one).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the cipher's key cannot be made.
    package func scratchSealing() throws -> ScratchCipher? {
        do {
            return try StoreMeta.read(layout).isEncrypted ? ScratchCipher.forProcess() : nil
        } catch let error as HealthLogError where error.code == .noStore {
            return nil
        } catch {
            return try ScratchCipher.forProcess()
        }
    }
}
