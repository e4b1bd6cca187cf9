/// A store's data keys as `healthlog unlock` leaves them in the user's kernel keyring
/// (``KernelKeyring``), under the description `healthlog:<store id>`, so that the commands
/// that follow open the store without a secret and without a key derivation.
///
/// The payload: the store id (16 bytes), the slot authority key (32 bytes, so that `key
/// rotate` works on an unlocked store and entries are verified as when a slot opens), u32
/// count, then per key epoch u32 epoch and the 32-byte key. It lives only in the kernel and
/// in guarded memory.
enum UnlockedKeys {
    /// The keyring description of the store `storeID`'s keys.
    static func description(_ storeID: StoreID) -> String {
        "healthlog:" + storeID.text
    }

    /// Puts `keys` and `authority`, the store `storeID`'s, in the keyring for `seconds`,
    /// replacing any held.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring.
    static func store(_ storeID: StoreID, keys: [UInt32: SecretBytes], authority: SecretBytes, seconds: UInt32) throws {
        try KernelKeyring.store(description(storeID), payload: try payload(storeID, keys, authority), seconds: seconds)
    }

    /// Replaces the keys held for the store `storeID` with `keys`, keeping their timeout (after a
    /// rotation); nothing when the store is not unlocked.
    static func refresh(_ storeID: StoreID, keys: [UInt32: SecretBytes], authority: SecretBytes) throws {
        KernelKeyring.update(description(storeID), payload: try payload(storeID, keys, authority))
    }

    /// The keys and the slot authority key held for the store `storeID`; `nil` when it is
    /// not unlocked (or the payload is not one this build wrote).
    static func read(_ storeID: StoreID) throws -> (EpochTable<SecretBytes>, SecretBytes)? {
        guard let payload = try KernelKeyring.read(description(storeID)) else { return nil }
        return try payload.withUnsafeBytes { bytes -> (EpochTable<SecretBytes>, SecretBytes)? in
            guard bytes.count >= headLength, bytes.prefix(16).elementsEqual(storeID.bytes) else { return nil }
            let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: headLength - 4, as: UInt32.self)))
            guard bytes.count == headLength + count * 36 else { return nil }
            let authority = try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[16..<16 + KeySlot.authorityLength]))
            var keys = EpochTable<SecretBytes>()
            for index in 0..<count {
                let at = headLength + index * 36
                let epoch = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                keys[epoch] = try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[at + 4..<at + 36]))
            }
            return (keys, authority)
        }
    }

    /// Drops the keys held for the store `storeID`; `false` when none were held.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring.
    static func drop(_ storeID: StoreID) throws -> Bool {
        try KernelKeyring.remove(description(storeID))
    }

    /// The payload's bytes before the first key: store id, authority key, count.
    private static let headLength = 16 + KeySlot.authorityLength + 4

    private static func payload(_ storeID: StoreID, _ keys: [UInt32: SecretBytes], _ authority: SecretBytes) throws -> SecretBytes {
        let epochs = keys.keys.sorted()
        return try SecretBytes(count: headLength + epochs.count * 36) { out in
            out.copyBytes(from: storeID.bytes)
            authority.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[16..<16 + KeySlot.authorityLength]).copyMemory(from: $0) }
            out.storeBytes(of: UInt32(epochs.count).littleEndian, toByteOffset: headLength - 4, as: UInt32.self)
            for (index, epoch) in epochs.enumerated() {
                let at = headLength + index * 36
                out.storeBytes(of: epoch.littleEndian, toByteOffset: at, as: UInt32.self)
                keys[epoch]!.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[at + 4..<at + 36]).copyMemory(from: $0) }
            }
        }
    }
}
