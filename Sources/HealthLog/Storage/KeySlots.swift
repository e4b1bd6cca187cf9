/// The key slots of an encrypted store (`keys/`): each wraps the store's data keys for one
/// passphrase or key file.
enum KeySlots {
    /// The data keys the slots of the store at `layout` give for `secret`.
    ///
    /// - Throws: ``HealthLogError/Code/wrongKey`` when no slot opens with it.
    static func unlock(_ layout: StoreLayout, storeID: StoreID, secret: StoreSecret) throws -> StoreCipher {
        throw HealthLogError(.wrongKey, "\(layout.keySlots): no key slot opens with the secret given")
    }
}
