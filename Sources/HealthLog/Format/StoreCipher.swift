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
    let keys: [UInt32: SecretBytes]
    /// Each epoch's cipher; an epoch missing here is XChaCha20-Poly1305.
    private let ciphers: [UInt32: UnitCipher]

    /// The keys `keys` of the store `storeID`, by epoch, each epoch sealing with its cipher in
    /// `ciphers`; new units go under `current`.
    init(storeID: StoreID, keys: [UInt32: SecretBytes], ciphers: [UInt32: UnitCipher], current: UInt32) {
        precondition(keys[current] != nil, "the current epoch has a key")
        self.storeID = storeID
        self.keys = keys
        self.ciphers = ciphers
        self.currentEpoch = current
    }

    /// The cipher of `epoch`.
    func cipher(of epoch: UInt32) -> UnitCipher { ciphers[epoch] ?? .xchacha20Poly1305 }

    /// The epochs whose keys this cipher holds, ascending.
    var epochs: [UInt32] { keys.keys.sorted() }

    /// Seals `plaintext` as a unit of `purpose` at `place` into `out`, which is exactly
    /// `plaintext.count + overhead` bytes.
    func seal(_ plaintext: UnsafeRawBufferPointer, _ purpose: Purpose, place: [UInt8], into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == plaintext.count + Self.overhead, "a unit's room")
        out.storeBytes(of: currentEpoch.littleEndian, toByteOffset: 0, as: UInt32.self)
        let associated = associatedData(currentEpoch, purpose, place)
        associated.withUnsafeBytes { associated in
            cipher(of: currentEpoch).seal(plaintext, associated: associated, key: keys[currentEpoch]!, into: UnsafeMutableRawBufferPointer(rebasing: out[4...]))
        }
    }

    /// `plaintext` sealed as a unit of `purpose` at `place`.
    func seal(_ plaintext: [UInt8], _ purpose: Purpose, place: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintext.count + Self.overhead) { out, filled in
            plaintext.withUnsafeBytes { seal($0, purpose, place: place, into: UnsafeMutableRawBufferPointer(out)) }
            filled = plaintext.count + Self.overhead
        }
    }

    /// Opens `unit`, sealed as `purpose` at `place`, into `out` (exactly
    /// `unit.count - overhead` bytes); `false` when it does not open: its epoch's key is not
    /// held, or it was changed, moved or sealed for another place or store.
    func open(_ unit: UnsafeRawBufferPointer, _ purpose: Purpose, place: [UInt8], into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard let epoch = Self.epoch(of: unit), let key = keys[epoch], out.count == unit.count - Self.overhead else { return false }
        let associated = associatedData(epoch, purpose, place)
        return associated.withUnsafeBytes { associated in
            cipher(of: epoch).open(UnsafeRawBufferPointer(rebasing: unit[4...]), associated: associated, key: key, into: out)
        }
    }

    /// Opens `unit`, sealed as `purpose` at `place`, in place: its plaintext overwrites its
    /// ciphertext. Returns where in `unit` the plaintext lies; `nil` when it does not open.
    func openInPlace(_ unit: UnsafeMutableRawBufferPointer, _ purpose: Purpose, place: [UInt8]) -> Range<Int>? {
        guard unit.count >= Self.overhead else { return nil }
        let plaintext = 4 + UnitCipher.prefixLength..<unit.count - UnitCipher.tagLength
        guard open(UnsafeRawBufferPointer(unit), purpose, place: place, into: UnsafeMutableRawBufferPointer(rebasing: unit[plaintext])) else { return nil }
        return plaintext
    }

    /// The plaintext of `unit`, sealed as `purpose` at `place`; `nil` when it does not open.
    func open(_ unit: [UInt8], _ purpose: Purpose, place: [UInt8]) -> [UInt8]? {
        guard unit.count >= Self.overhead else { return nil }
        var opened = true
        let plaintext = [UInt8](unsafeUninitializedCapacity: unit.count - Self.overhead) { out, filled in
            opened = unit.withUnsafeBytes { open($0, purpose, place: place, into: UnsafeMutableRawBufferPointer(out)) }
            filled = unit.count - Self.overhead
        }
        return opened ? plaintext : nil
    }

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

    func associatedData(_ epoch: UInt32, _ purpose: Purpose, _ place: [UInt8]) -> [UInt8] {
        var bytes = FormatConstants.unitAssociatedTag
        bytes.reserveCapacity(bytes.count + 21 + place.count)
        bytes.append(contentsOf: storeID.bytes)
        withUnsafeBytes(of: epoch.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(purpose.rawValue)
        bytes.append(contentsOf: place)
        return bytes
    }
}
