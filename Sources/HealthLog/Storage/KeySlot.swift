/// One key slot of an encrypted store (`keys/<id>.slot`, the Format article's "Key slots"):
/// an X25519 key pair whose secret key is wrapped under a key made from one passphrase
/// (Argon2id) or key file (keyed BLAKE2b) together with the store's slot authority key,
/// and the store's data keys, one entry per key epoch, each with a MAC under the authority
/// key (``mac(_:_:_:_:slot:storeID:authority:)``). An entry is either sealed to the pair's
/// public key (a sealed box: what a writer holding only the public key makes) or wrapped
/// under the slot's entry key, which its secret key gives (``Entry/Form``).
///
/// A ``SmallFile`` tagged `HLKS` (a record: all header, the checksum last), version 2 when
/// every entry is sealed and XChaCha20-Poly1305, version 3 when every entry is sealed and
/// one names another cipher, version 4 when an entry is wrapped:
///
/// ```
/// u16 slot id, u8 kind (1 passphrase, 2 key file), u8 0, i64 created (ms since 1970)
/// u64 Argon2id passes, u64 Argon2id memory bytes, u32 algorithm (all 0 for a key file)
/// 16 salt, 32 public key
/// 104 wrapped: XChaCha20-Poly1305 nonce (24) ‖ ciphertext of secret key (32) ‖ authority key (32) ‖ tag (16)
/// u32 epoch count n, then n × (u32 epoch, [version 3, 4: u8 cipher], [version 4: u8 form], 84 entry, 32 MAC)
///   sealed entry: sealed box of epoch (u32) ‖ data key (32)
///   wrapped entry: XChaCha20-Poly1305 nonce (24) ‖ ciphertext of epoch (u32) ‖ data key (32) ‖ 8 zero bytes ‖ tag (16)
/// u32 CRC-32C of every byte before it
/// ```
struct KeySlot: Sendable {
    /// What opens a slot.
    enum Kind: UInt8, Sendable {
        /// A passphrase, through Argon2id.
        case passphrase = 1
        /// A key file's bytes, through keyed BLAKE2b.
        case keyFile = 2

        /// How `key list` names it.
        var name: String { self == .passphrase ? "passphrase" : "key file" }
    }

    /// One data key of the slot.
    struct Entry: Sendable {
        /// How an entry's data key is sealed.
        enum Form: UInt8, Sendable {
            /// A sealed box to the slot's public key: opening it costs an X25519.
            case sealed = 1
            /// XChaCha20-Poly1305 under the slot's entry key (``KeySlot/entryKey(_:)``):
            /// only a holder of the slot's secret key makes one; opening it is cheap.
            case wrapped = 2
        }

        /// The key epoch.
        var epoch: UInt32
        /// `epoch ‖ key` in the entry's ``form``: ``KeySlot/sealedLength`` bytes.
        var sealed: [UInt8]
        /// The MAC of the entry under the store's slot authority key.
        var mac: [UInt8]
        /// The cipher the epoch seals units with.
        var cipher: UnitCipher = .xchacha20Poly1305
        /// How ``sealed`` is sealed.
        var form: Form = .sealed
    }

    /// The file's kind at `version`: 2, whose entries are all sealed and XChaCha20-Poly1305
    /// and name neither, 3, whose sealed entries each name their cipher, or 4, whose entries
    /// each name their cipher and form.
    static func file(version: UInt16) -> SmallFile {
        let entryLength = entryLength(version: version)
        return SmallFile(tag: "HLKS", version: version, headerLength: nil) { bytes in
            let count = Int(ByteReaderValue.u32(bytes, fixedLength - 4))
            return count <= maximumEntries ? fixedLength + count * entryLength + 4 : nil
        }
    }
    /// The oldest and newest file versions this build reads.
    static let versions: ClosedRange<UInt16> = 2...4
    /// One entry's length in a file of `version`.
    static func entryLength(version: UInt16) -> Int {
        switch version {
        case ...2: entryLength
        case 3: entryLength + 1
        default: entryLength + 2
        }
    }
    /// The bytes before the first entry.
    static let fixedLength = 8 + 4 + 8 + 20 + Argon2id.saltLength + SealedBox.publicKeyLength + wrappedLength + 4
    /// The slot authority key's length.
    static let authorityLength = 32
    /// The wrapped secret key and authority key's length.
    static let wrappedLength = SealedBox.secretKeyLength + authorityLength + XChaCha20Poly1305.overhead
    /// One sealed data key's length, in either form.
    static let sealedLength = 4 + XChaCha20Poly1305.keyLength + SealedBox.overhead
    /// The zero bytes after a wrapped entry's data key, which make it as long as a sealed one.
    static let wrappedPadding = sealedLength - XChaCha20Poly1305.overhead - 4 - XChaCha20Poly1305.keyLength
    /// One entry MAC's length.
    static let macLength = 32
    /// One entry's length in a version 2 file.
    static let entryLength = 4 + sealedLength + macLength
    /// The most entries a slot file may hold.
    static let maximumEntries = 1 << 16
    /// The highest slot id (four digits in the file name).
    static let maximumID: UInt16 = 9999

    /// The slot's number, also in its file name.
    var id: UInt16
    var kind: Kind
    /// When the slot was made, in milliseconds since 1970.
    var createdMillis: Int64
    /// The Argon2id cost of a passphrase slot; zero for a key file.
    var cost: Argon2id.Cost
    /// The Argon2id salt, or the BLAKE2b key of a key file.
    var salt: [UInt8]
    var publicKey: [UInt8]
    /// The secret key and the authority key, sealed under the key the passphrase or key file makes.
    var wrappedSecretKey: [UInt8]
    /// The data keys the slot holds, by ascending epoch.
    var entries: [Entry]

    /// The epochs this slot holds.
    var epochs: [UInt32] { entries.map(\.epoch) }

    /// The file name of slot `id`: `0001.slot`.
    static func fileName(_ id: UInt16) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".slot"
    }

    /// The slot id a file name stands for; `nil` for any other name (temporaries).
    static func id(fileName: String) -> UInt16? {
        guard fileName.utf8.count == 9, fileName.hasSuffix(".slot"), fileName.prefix(4).allSatisfy(\.isASCII),
            let id = UInt16(fileName.prefix(4)), id >= 1, id <= maximumID
        else { return nil }
        return id
    }

    /// The version of the file's layout: 4 once an entry is wrapped; else 2 while every
    /// epoch is XChaCha20-Poly1305, so such a store's slot files stay in the layout every
    /// reader of version 2 knows; else 3.
    var fileVersion: UInt16 {
        if entries.contains(where: { $0.form == .wrapped }) { return 4 }
        return entries.allSatisfy { $0.cipher == .xchacha20Poly1305 } ? 2 : 3
    }

    /// The file's bytes, at ``fileVersion``.
    func encoded() -> [UInt8] {
        let version = fileVersion
        return Self.file(version: version).encode { w in
            w.append(id)
            w.append(kind.rawValue)
            w.append(UInt8(0))
            w.append(createdMillis)
            w.append(cost.operations)
            w.append(cost.memory)
            w.append(kind == .passphrase ? Argon2id.algorithm : 0)
            w.append(bytes: salt)
            w.append(bytes: publicKey)
            w.append(bytes: wrappedSecretKey)
            w.append(UInt32(entries.count))
            for entry in entries {
                w.append(entry.epoch)
                if version >= 3 { w.append(entry.cipher.rawValue) }
                if version >= 4 { w.append(entry.form.rawValue) }
                w.append(bytes: entry.sealed)
                w.append(bytes: entry.mac)
            }
        }
    }

    /// The slot in `bytes`, read from the file of slot `id`.
    ///
    /// - Throws: a message saying what is wrong: not a slot file (truncated, changed), or
    ///   another slot's file (`id` differs), or a cost or algorithm this build refuses.
    static func decode(_ bytes: [UInt8], id: UInt16) throws(Problem) -> KeySlot {
        let version: UInt16
        switch IndexVersion(bytes, tag: Array("HLKS".utf8), current: versions.upperBound) {
        case .current: version = versions.upperBound
        case .other(let other) where versions.contains(other): version = other
        case .other(let other) where other < versions.lowerBound:
            throw Problem("slot file version \(other) is older than this build of healthlog reads (version \(versions.lowerBound))")
        case .other(let other) where other > versions.upperBound:
            throw Problem("slot file declares version \(other), newer than this build of healthlog reads (up to \(versions.upperBound)): made by a newer healthlog, or changed")
        default: version = versions.upperBound
        }
        guard var r = file(version: version).open(bytes) else { throw Problem("not a valid key slot file (\(bytes.count) bytes: truncated, changed, or another kind of file)") }
        do {
            let stored = try r.read(UInt16.self)
            guard stored == id else { throw Problem("holds slot \(fileName(stored).dropLast(5))'s content, not slot \(fileName(id).dropLast(5))'s") }
            guard let kind = Kind(rawValue: try r.read(UInt8.self)) else { throw Problem("unknown slot kind") }
            _ = try r.read(UInt8.self)
            let created = try r.read(Int64.self)
            let cost = Argon2id.Cost(operations: try r.read(UInt64.self), memory: try r.read(UInt64.self))
            let algorithm = try r.read(UInt32.self)
            if kind == .passphrase {
                guard algorithm == Argon2id.algorithm else { throw Problem("key derivation algorithm \(algorithm), which this healthlog does not know") }
                guard cost.isAcceptable else { throw Problem("asks for an Argon2id cost past this healthlog's bounds (\(cost.operations) passes, \(cost.memory) bytes)") }
            }
            let salt = Array(try r.read(count: Argon2id.saltLength))
            let publicKey = Array(try r.read(count: SealedBox.publicKeyLength))
            let wrapped = Array(try r.read(count: wrappedLength))
            let count = Int(try r.read(UInt32.self))
            var entries: [Entry] = []
            for _ in 0..<count {
                let epoch = try r.read(UInt32.self)
                guard entries.last.map({ $0.epoch < epoch }) ?? true else { throw Problem("its key epochs are out of order") }
                var cipher = UnitCipher.xchacha20Poly1305
                if version >= 3 {
                    let raw = try r.read(UInt8.self)
                    guard let named = UnitCipher(rawValue: raw) else { throw Problem("key epoch \(epoch) names cipher \(raw), which this healthlog does not know") }
                    cipher = named
                }
                var form = Entry.Form.sealed
                if version >= 4 {
                    let raw = try r.read(UInt8.self)
                    guard let named = Entry.Form(rawValue: raw) else { throw Problem("key epoch \(epoch) names entry form \(raw), which this healthlog does not know") }
                    form = named
                }
                let sealed = Array(try r.read(count: sealedLength))
                entries.append(Entry(epoch: epoch, sealed: sealed, mac: Array(try r.read(count: macLength)), cipher: cipher, form: form))
            }
            // One layout per content (``fileVersion``), as a writer makes it.
            switch version {
            case 3 where !entries.contains(where: { $0.cipher != .xchacha20Poly1305 }):
                throw Problem("not a valid key slot file (version 3 with only XChaCha20-Poly1305 epochs)")
            case 4 where !entries.contains(where: { $0.form == .wrapped }):
                throw Problem("not a valid key slot file (version 4 with no wrapped entry)")
            default: break
            }
            return KeySlot(
                id: id, kind: kind, createdMillis: created, cost: cost, salt: salt, publicKey: publicKey, wrappedSecretKey: wrapped, entries: entries)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem("not a valid key slot file (truncated)")
        }
    }

    /// What is wrong with a slot file.
    struct Problem: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The associated data of the wrapped secret key: the store, the slot's id and kind,
    /// and its public key, so a wrapped key opens only in its own slot of its own store.
    func wrapAssociatedData(_ storeID: StoreID) -> [UInt8] {
        var bytes = Array("healthlog key slot v1".utf8)
        bytes.append(contentsOf: storeID.bytes)
        withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(kind.rawValue)
        bytes.append(contentsOf: publicKey)
        return bytes
    }

    /// The MAC of the entry of `epoch` holding `sealed` in `form` in slot `id` of the store
    /// `storeID`: BLAKE2b-256 keyed with the slot authority key over "healthlog key epoch v1"
    /// ‖ store id ‖ slot id ‖ epoch ‖ sealed bytes, then for a sealed entry the cipher (u8)
    /// when it is not XChaCha20-Poly1305, for a wrapped one the cipher and the form (u8
    /// each), so no one without the authority key can change an epoch's cipher or an
    /// entry's form. Only a holder of a slot's secret has the authority key, so a writer of
    /// the files alone cannot add a data key that any slot accepts.
    static func mac(
        _ epoch: UInt32, _ sealed: [UInt8], _ cipher: UnitCipher, _ form: Entry.Form, slot id: UInt16, storeID: StoreID, authority: SecretBytes
    ) -> [UInt8] {
        BLAKE2b.mac(macMessage(epoch, sealed, cipher, form, slot: id, storeID: storeID), key: authority)
    }

    /// Whether `entry` of this slot carries its MAC under `authority`.
    func verifies(_ entry: Entry, storeID: StoreID, authority: SecretBytes) -> Bool {
        BLAKE2b.verify(entry.mac, Self.macMessage(entry.epoch, entry.sealed, entry.cipher, entry.form, slot: id, storeID: storeID), key: authority)
    }

    private static func macMessage(_ epoch: UInt32, _ sealed: [UInt8], _ cipher: UnitCipher, _ form: Entry.Form, slot id: UInt16, storeID: StoreID) -> [UInt8] {
        var bytes = Array("healthlog key epoch v1".utf8)
        bytes.append(contentsOf: storeID.bytes)
        withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: epoch.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: sealed)
        switch form {
        case .sealed: if cipher != .xchacha20Poly1305 { bytes.append(cipher.rawValue) }
        case .wrapped: bytes.append(contentsOf: [cipher.rawValue, form.rawValue])
        }
        return bytes
    }

    /// The key this slot's wrapped entries are sealed under: BLAKE2b-256 keyed with the
    /// slot's X25519 `secretKey` over "healthlog slot entry key v1".
    static func entryKey(_ secretKey: SecretBytes) throws -> SecretBytes {
        try BLAKE2b.derive(Array("healthlog slot entry key v1".utf8), key: secretKey)
    }

    /// The associated data of this slot's wrapped entry of `epoch` sealing with `cipher`:
    /// the store, the slot's id, the epoch and the cipher, so a wrapped entry opens only
    /// in its own slot of its own store, as its own epoch.
    func entryAssociatedData(_ epoch: UInt32, _ cipher: UnitCipher, storeID: StoreID) -> [UInt8] {
        var bytes = Array("healthlog slot entry v1".utf8)
        bytes.append(contentsOf: storeID.bytes)
        withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: epoch.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(cipher.rawValue)
        return bytes
    }
}
