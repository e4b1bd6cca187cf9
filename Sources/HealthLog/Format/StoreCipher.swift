import Synchronization

/// The data keys of an encrypted store, one per key epoch, and the sealing of its units:
/// each thing the store writes encrypted (a batch's group table, a group frame, a derived
/// file's body or block) is one *unit*, sealed with the current epoch's cipher
/// (``UnitCipher``: XChaCha20-Poly1305 or AES-256-GCM) under its key and bound by its
/// associated data to the store, to what the unit is and to where it belongs
/// (<doc:Format#Encrypted-stores>).
///
/// A unit is `epoch (u32) ‖ 24 random bytes ‖ ciphertext ‖ tag`, ``overhead`` bytes more
/// than its plaintext. Its associated data is the store identity, the epoch, the unit's
/// ``Purpose`` and the caller's `place` bytes: a unit moved to another place, another file
/// or another store, or swapped with another, no longer opens.
final class StoreCipher: Sendable {
    /// What a unit holds; part of its associated data, so a unit of one kind never opens
    /// as another.
    enum Purpose: UInt8, Sendable {
        /// The sealed part of a batch header: groups, dropped events, origin.
        case batchTable = 1
        /// One group's LZ4 frame.
        case groupFrame = 2
        /// The body of a derived small file (an index).
        case derivedFile = 3
    }

    /// The bytes a unit adds to its plaintext: the epoch, the nonce and the tag.
    static let overhead = 4 + UnitCipher.overhead

    /// The store the keys belong to.
    let storeID: StoreID
    /// The epoch new units are sealed under.
    let currentEpoch: UInt32
    let keys: EpochTable<SecretBytes>
    /// Each epoch's cipher; an epoch missing here is XChaCha20-Poly1305.
    private let ciphers: EpochTable<UnitCipher>

    /// The keys `keys` of the store `storeID`, by epoch, each epoch sealing with its cipher in
    /// `ciphers`; new units go under `current`.
    convenience init(storeID: StoreID, keys: [UInt32: SecretBytes], ciphers: [UInt32: UnitCipher], current: UInt32) {
        self.init(storeID: storeID, keys: EpochTable(keys), ciphers: EpochTable(ciphers), current: current)
    }

    /// ``init(storeID:keys:ciphers:current:)`` with the keys and ciphers in epoch tables.
    init(storeID: StoreID, keys: EpochTable<SecretBytes>, ciphers: EpochTable<UnitCipher>, current: UInt32) {
        precondition(keys[current] != nil, "the current epoch has a key")
        self.storeID = storeID
        self.keys = keys
        self.ciphers = ciphers
        self.currentEpoch = current
        associatedHead = FormatConstants.unitAssociatedTag + storeID.bytes
        currentKey = keys[current]!
        currentCipher = ciphers[current] ?? .xchacha20Poly1305
        currentUnitKeys = currentCipher.prepare(currentKey)
    }

    /// The current epoch's key and cipher, which nearly every unit names: taken without a
    /// dictionary lookup, with what the cipher keeps of the key (``UnitCipher/prepare(_:)``).
    private let currentKey: SecretBytes
    private let currentCipher: UnitCipher
    private let currentUnitKeys: AES256GCM.UnitKeys?
    /// What the ciphers of older epochs keep of their keys, made when a unit of the epoch
    /// is first opened (in an array: see ``AES256GCM/UnitKeys``'s salts).
    private let olderUnitKeys = Mutex<[OlderUnitKeys]>([])

    /// What an older epoch's cipher keeps of its key. A struct, not a tuple: an array of
    /// tuples has its type made at run time when it is let go, about 28,000 instructions at
    /// the end of every command that opens an encrypted store.
    private struct OlderUnitKeys {
        let epoch: UInt32
        let keys: AES256GCM.UnitKeys?
    }

    /// What `epoch`'s cipher keeps of its key `key` (``UnitCipher/prepare(_:)``).
    private func unitKeys(of epoch: UInt32, key: SecretBytes) -> AES256GCM.UnitKeys? {
        if epoch == currentEpoch { return currentUnitKeys }
        let cipher = cipher(of: epoch)
        guard cipher == .aes256GCM else { return nil }
        return olderUnitKeys.withLock { older in
            if let kept = older.first(where: { $0.epoch == epoch }) { return kept.keys }
            let made = cipher.prepare(key)
            older.append(OlderUnitKeys(epoch: epoch, keys: made))
            return made
        }
    }

    /// The key of `epoch`; `nil` when no slot holds it.
    private func key(of epoch: UInt32) -> SecretBytes? {
        epoch == currentEpoch ? currentKey : keys[epoch]
    }

    /// What every unit's associated data starts with: the text `healthlog unit v1` and the
    /// store identity.
    private let associatedHead: [UInt8]

    /// The cipher of `epoch`.
    func cipher(of epoch: UInt32) -> UnitCipher { epoch == currentEpoch ? currentCipher : ciphers[epoch] ?? .xchacha20Poly1305 }

    /// A reader is about to open `bytes` of this store's units: AES-256-GCM takes its bulk
    /// implementation from the first of them when that many pay for its set-up
    /// (``AES256GCM/BulkSwitch/expect(_:)``).
    func expect(_ bytes: Int) {
        if ciphers.values.contains(.aes256GCM) { AES256GCM.bulk.expect(bytes) }
    }

    /// How many batch tables this cipher was asked to open (see ``openedCount(_:)``).
    private let openedTables = Atomic<Int>(0)
    /// How many group frames this cipher was asked to open.
    private let openedFrames = Atomic<Int>(0)
    /// How many units of derived files this cipher was asked to open.
    private let openedDerived = Atomic<Int>(0)

    /// How many units of `purpose` this cipher was asked to open, whether they opened or not:
    /// what tests count of a read.
    func openedCount(_ purpose: Purpose) -> Int {
        switch purpose {
        case .batchTable: openedTables.load(ordering: .relaxed)
        case .groupFrame: openedFrames.load(ordering: .relaxed)
        case .derivedFile: openedDerived.load(ordering: .relaxed)
        }
    }

    /// The epochs whose keys this cipher holds, ascending.
    var epochs: [UInt32] { keys.epochs.sorted() }

    /// Seals `plaintext` as a unit of `purpose` at `place` into `out`, which is exactly
    /// `plaintext.count + overhead` bytes; the units this process seals in one `scope`
    /// share a salt under AES-256-GCM (``AES256GCM/UnitKeys``).
    func seal(
        _ plaintext: UnsafeRawBufferPointer, _ purpose: Purpose, place: [UInt8], scope: AES256GCM.SaltScope = .derivedFiles, into out: UnsafeMutableRawBufferPointer
    ) {
        precondition(out.count == plaintext.count + Self.overhead, "a unit's room")
        out.storeBytes(of: currentEpoch.littleEndian, toByteOffset: 0, as: UInt32.self)
        place.withUnsafeBytes { place in
            withAssociatedData(currentEpoch, purpose, place) { associated in
                currentCipher.seal(
                    plaintext, associated: associated, key: currentKey, keys: currentUnitKeys, scope: scope, into: UnsafeMutableRawBufferPointer(rebasing: out[4...]))
            }
        }
    }

    /// Seals, as a unit of `purpose` at `place` in `scope`, the plaintext `unit` holds where
    /// ``openInPlace(_:_:place:)`` leaves it (`unit` less ``overhead`` bytes, after the
    /// epoch and the unit's prefix): its ciphertext overwrites it, and the rest of `unit`
    /// is filled around it. Every cipher here encrypts block by block, each read before it
    /// is written, so a unit needs no room beside its plaintext.
    func sealInPlace(_ unit: UnsafeMutableRawBufferPointer, _ purpose: Purpose, place: [UInt8], scope: AES256GCM.SaltScope = .derivedFiles) {
        precondition(unit.count >= Self.overhead, "a unit's room")
        let plaintext = 4 + UnitCipher.prefixLength..<unit.count - UnitCipher.tagLength
        seal(UnsafeRawBufferPointer(rebasing: unit[plaintext]), purpose, place: place, scope: scope, into: unit)
    }

    /// `plaintext` sealed as a unit of `purpose` at `place`, in `scope`.
    func seal(_ plaintext: [UInt8], _ purpose: Purpose, place: [UInt8], scope: AES256GCM.SaltScope = .derivedFiles) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintext.count + Self.overhead) { out, filled in
            plaintext.withUnsafeBytes { seal($0, purpose, place: place, scope: scope, into: UnsafeMutableRawBufferPointer(out)) }
            filled = plaintext.count + Self.overhead
        }
    }

    /// Opens `unit`, sealed as `purpose` at `place`, into `out` (exactly
    /// `unit.count - overhead` bytes); `false` when it does not open: its epoch's key is not
    /// held, or it was changed, moved or sealed for another place or store.
    func open(_ unit: UnsafeRawBufferPointer, _ purpose: Purpose, place: [UInt8], into out: UnsafeMutableRawBufferPointer) -> Bool {
        place.withUnsafeBytes { open(unit, purpose, place: $0, into: out) }
    }

    /// ``open(_:_:place:into:)`` with the place given as raw bytes (built on the stack by a
    /// reader that opens many units).
    func open(_ unit: UnsafeRawBufferPointer, _ purpose: Purpose, place: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        switch purpose {
        case .batchTable: openedTables.add(1, ordering: .relaxed)
        case .groupFrame: openedFrames.add(1, ordering: .relaxed)
        case .derivedFile: openedDerived.add(1, ordering: .relaxed)
        }
        guard let epoch = Self.epoch(of: unit), let key = key(of: epoch), out.count == unit.count - Self.overhead else { return false }
        return withAssociatedData(epoch, purpose, place) { associated in
            cipher(of: epoch).open(
                UnsafeRawBufferPointer(rebasing: unit[4...]), associated: associated, key: key, keys: unitKeys(of: epoch, key: key), into: out)
        }
    }

    /// Opens `unit`, sealed as `purpose` at `place`, in place: its plaintext overwrites its
    /// ciphertext. Returns where in `unit` the plaintext lies; `nil` when it does not open.
    func openInPlace(_ unit: UnsafeMutableRawBufferPointer, _ purpose: Purpose, place: [UInt8]) -> Range<Int>? {
        place.withUnsafeBytes { openInPlace(unit, purpose, place: $0) }
    }

    /// ``openInPlace(_:_:place:)`` with the place given as raw bytes.
    func openInPlace(_ unit: UnsafeMutableRawBufferPointer, _ purpose: Purpose, place: UnsafeRawBufferPointer) -> Range<Int>? {
        guard unit.count >= Self.overhead else { return nil }
        let plaintext = 4 + UnitCipher.prefixLength..<unit.count - UnitCipher.tagLength
        guard open(UnsafeRawBufferPointer(unit), purpose, place: place, into: UnsafeMutableRawBufferPointer(rebasing: unit[plaintext])) else { return nil }
        return plaintext
    }

    /// The plaintext of `unit`, sealed as `purpose` at `place`; `nil` when it does not open.
    func open(_ unit: [UInt8], _ purpose: Purpose, place: [UInt8]) -> [UInt8]? {
        unit.withUnsafeBytes { open($0, purpose, place: place) }
    }

    /// The plaintext of `unit`, sealed as `purpose` at `place`; `nil` when it does not open.
    func open(_ unit: UnsafeRawBufferPointer, _ purpose: Purpose, place: [UInt8]) -> [UInt8]? {
        guard unit.count >= Self.overhead else { return nil }
        var opened = true
        let plaintext = [UInt8](unsafeUninitializedCapacity: unit.count - Self.overhead) { out, filled in
            // A large unit (a segment index's copy of its tables) is written into fresh
            // pages: mapped in with one call rather than a fault each.
            if out.count >= Self.prefaultBytes { Prefault.populate(out.baseAddress!, count: out.count) }
            opened = open(unit, purpose, place: place, into: UnsafeMutableRawBufferPointer(out))
            filled = unit.count - Self.overhead
        }
        return opened ? plaintext : nil
    }

    /// The plaintext size from which ``open(_:_:place:)`` maps in its output's pages at once.
    private static let prefaultBytes = 64 << 10

    /// The epoch a unit was sealed under; `nil` for bytes too short to be a unit.
    static func epoch(of unit: UnsafeRawBufferPointer) -> UInt32? {
        unit.count >= overhead ? UInt32(littleEndian: unit.loadUnaligned(as: UInt32.self)) : nil
    }

    /// A message for a unit that did not open: which epoch it names when this cipher holds
    /// no key for it, else that it was changed or moved.
    func failure(of unit: UnsafeRawBufferPointer) -> String {
        guard let epoch = Self.epoch(of: unit) else { return "encrypted unit is truncated" }
        if keys[epoch] == nil { return "encrypted unit is sealed under key epoch \(epoch), which no key slot holds" }
        return "encrypted unit does not authenticate (changed, moved or from another store)"
    }

    /// Runs `body` with the associated data of a unit of `purpose` at `place` sealed under
    /// `epoch`: the fixed ``associatedHead``, the epoch, the purpose and the place, written
    /// into a temporary buffer (on the stack for any place a store uses: this runs for every
    /// unit opened).
    private func withAssociatedData<R>(_ epoch: UInt32, _ purpose: Purpose, _ place: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        associatedHead.withUnsafeBytes { head in
            withUnsafeTemporaryAllocation(byteCount: head.count + 5 + place.count, alignment: 1) { raw in
                raw.copyMemory(from: head)
                raw.storeBytes(of: epoch.littleEndian, toByteOffset: head.count, as: UInt32.self)
                raw[head.count + 4] = purpose.rawValue
                if !place.isEmpty { UnsafeMutableRawBufferPointer(rebasing: raw[(head.count + 5)...]).copyMemory(from: place) }
                return body(UnsafeRawBufferPointer(raw))
            }
        }
    }

    /// The associated data of a unit of `purpose` at `place` sealed under `epoch`, as bytes
    /// (for a unit sealed in pieces).
    func associatedData(_ epoch: UInt32, _ purpose: Purpose, _ place: [UInt8]) -> [UInt8] {
        place.withUnsafeBytes { place in withAssociatedData(epoch, purpose, place) { Array($0) } }
    }
}
