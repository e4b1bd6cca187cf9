internal import CSodium
import Synchronization

extension AES256GCM {
    /// What a unit belongs to when a writer chooses its salt: the units one process seals
    /// into one scope share a salt, so one unit key (``UnitKeys/drawSalt(for:sealing:into:)``).
    enum SaltScope: Equatable, Sendable {
        /// The units of one segment file: its base sequence number and generation.
        case segment(base: UInt64, generation: UInt32)
        /// The units of the derived files (indexes) the process writes.
        case derivedFiles
    }

    /// A data key of AES-256-GCM units and what makes its unit keys cheap: the keyed hash
    /// state (``AES256GCM/prepare(_:)``), the salts this process seals under, one per
    /// ``SaltScope`` (a fresh one after ``unitsPerSalt`` units or ``bytesPerSalt`` bytes),
    /// and the unit keys of the last ``slotCount`` salts seen, with libsodium's expanded key
    /// (`crypto_aead_aes256gcm_beforenm`), in guarded memory, and OpenSSL's contexts keyed
    /// with them once a unit of that salt goes to OpenSSL (``KeyedContexts``). So a reader
    /// derives a unit key and keys OpenSSL once per salt rather than once per unit, and a
    /// writer once per scope.
    final class UnitKeys: Sendable {
        /// The most units a writer seals under one salt.
        static let unitsPerSalt = 1 << 20
        /// The most plaintext bytes a writer seals under one salt (a unit that would pass it
        /// takes a fresh salt).
        static let bytesPerSalt = 1 << 32
        /// How many salts' unit keys are kept.
        static let slotCount = 4
        /// Where a slot's expanded key starts, after the unit key.
        private static let stateOffset = keyLength
        /// A slot's bytes: the unit key, then libsodium's expanded key.
        private static let slotLength = (stateOffset + crypto_aead_aes256gcm_statebytes() + 15) & ~15

        /// The data key.
        let key: SecretBytes
        /// ``AES256GCM/prepare(_:)`` of the key; `nil` when it could not be made.
        let prepared: SecretBytes?
        /// The slots; `nil` when no guarded memory is to be had (every unit key is then derived).
        private let room: GuardedRoom?

        /// The salt whose unit key each slot holds (`nil` while one is derived into it), how
        /// many calls use each slot now (a slot in use is never taken for another salt), the
        /// slot the next salt takes, and each slot's OpenSSL contexts for sealing (at
        /// `2 × slot`) and for opening (at `2 × slot + 1`), made when first asked for and let
        /// go when the slot takes another salt.
        private struct Slots {
            var salts = [Salt?](repeating: nil, count: UnitKeys.slotCount)
            var users = [Int](repeating: 0, count: UnitKeys.slotCount)
            var next = 0
            var contexts = [KeyedContexts?](repeating: nil, count: 2 * UnitKeys.slotCount)

            /// The slot that holds `salt`, or a free one taken for it (`fresh`), marked used;
            /// `nil` when every slot is in use.
            mutating func use(_ salt: Salt) -> (index: Int, fresh: Bool)? {
                if let index = salts.firstIndex(of: salt) {
                    users[index] += 1
                    return (index, false)
                }
                for step in 0..<UnitKeys.slotCount {
                    let index = (next + step) % UnitKeys.slotCount
                    guard users[index] == 0 else { continue }
                    next = (index + 1) % UnitKeys.slotCount
                    salts[index] = nil
                    contexts[2 * index] = nil
                    contexts[2 * index + 1] = nil
                    users[index] = 1
                    return (index, true)
                }
                return nil
            }
        }
        private let slots = Mutex(Slots())

        /// A salt a writer drew for a scope, with what it sealed under it so far.
        private struct Drawn {
            var scope: SaltScope
            var salt: Salt
            var units: Int
            var bytes: Int
        }
        /// The salts drawn, a few scopes' (an array, not a dictionary: a dictionary's type
        /// made at run time looks up its key's conformances, about 0.1 million instructions
        /// at a process's first use).
        private let drawn = Mutex<[Drawn]>([])

        /// The unit keys of `key`.
        init(_ key: SecretBytes) {
            self.key = key
            prepared = AES256GCM.prepare(key)
            room = GuardedRoom(count: Self.slotCount * Self.slotLength)
        }

        /// Writes the salt for a unit of `count` plaintext bytes in `scope` at `out`
        /// (``saltLength`` bytes): the scope's salt, or a fresh random one for a scope new to
        /// this process or whose salt has sealed its most.
        func drawSalt(for scope: SaltScope, sealing count: Int, into out: UnsafeMutableRawPointer) {
            let salt = drawn.withLock { drawn -> Salt in
                let index = drawn.firstIndex { $0.scope == scope }
                if let index, drawn[index].units < Self.unitsPerSalt, drawn[index].bytes + count <= Self.bytesPerSalt {
                    drawn[index].units += 1
                    drawn[index].bytes += count
                    return drawn[index].salt
                }
                var fresh = Salt(low: 0, high: 0)
                withUnsafeMutableBytes(of: &fresh) { randombytes_buf($0.baseAddress!, saltLength) }
                let entry = Drawn(scope: scope, salt: fresh, units: 1, bytes: count)
                if let index {
                    drawn[index] = entry
                } else {
                    // A writer moves on from a segment for good: old scopes are let go rather than kept.
                    if drawn.count >= 8 { drawn.removeAll() }
                    drawn.append(entry)
                }
                return fresh
            }
            salt.store(at: out)
        }

        /// Runs `body` with the unit key for `salt` (its first ``saltLength`` bytes), where
        /// libsodium's AES-256-GCM runs its expanded key, and when `openSSL` says whether to
        /// seal (`true`) or open (`false`), the slot's OpenSSL contexts for it: from the slot
        /// that holds the salt, else derived into a slot not in use (on the stack, wiped
        /// after, with neither expanded key nor contexts, when all are).
        func withUnitKey<R>(
            salt: UnsafeRawBufferPointer, openSSL: Bool? = nil, _ body: (UnsafePointer<UInt8>, UnsafePointer<crypto_aead_aes256gcm_state>?, KeyedContexts?) -> R
        ) -> R {
            let wanted = Salt(salt.baseAddress!)
            guard let room, let (index, fresh) = slots.withLock({ $0.use(wanted) }) else {
                return AES256GCM.withUnitKey(key, prepared: prepared, salt: salt) { body($0, nil, nil) }
            }
            defer { slots.withLock { $0.users[index] -= 1 } }
            let base = room.base + index * Self.slotLength
            let state = (base + Self.stateOffset).assumingMemoryBound(to: crypto_aead_aes256gcm_state.self)
            if fresh {
                AES256GCM.withUnitKey(key, prepared: prepared, salt: salt) { base.copyMemory(from: $0, byteCount: keyLength) }
                if isFast { _ = crypto_aead_aes256gcm_beforenm(state, base.assumingMemoryBound(to: UInt8.self)) }
                slots.withLock { $0.salts[index] = wanted }
            }
            let unitKey = base.assumingMemoryBound(to: UInt8.self)
            let pool = openSSL.flatMap { encrypt in
                slots.withLock { slots -> KeyedContexts? in
                    let at = 2 * index + (encrypt ? 0 : 1)
                    if slots.contexts[at] == nil {
                        slots.contexts[at] = (try? SecretBytes(copying: UnsafeRawBufferPointer(start: unitKey, count: keyLength))).map { KeyedContexts(key: $0, encrypt: encrypt) }
                    }
                    return slots.contexts[at]
                }
            }
            return body(unitKey, isFast ? UnsafePointer(state) : nil, pool)
        }
    }

    /// A 12-byte salt, compared as two words.
    struct Salt: Equatable, Sendable {
        var low: UInt64
        var high: UInt32

        /// The salt whose bytes start at `bytes`.
        init(_ bytes: UnsafeRawPointer) {
            low = bytes.loadUnaligned(as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        }

        /// The salt of the two words.
        init(low: UInt64, high: UInt32) {
            self.low = low
            self.high = high
        }

        /// Writes its ``saltLength`` bytes at `out`.
        func store(at out: UnsafeMutableRawPointer) {
            out.storeBytes(of: low, as: UInt64.self)
            out.storeBytes(of: high, toByteOffset: 8, as: UInt32.self)
        }
    }
}

/// Guarded memory (`sodium_malloc`: guard pages around it, locked, left out of core dumps)
/// for secrets that change as they are used, so left writable: the ``SecretPool`` is
/// read-only but while a secret is filled, and making it writable for every change would
/// cost two system calls each. Wiped and freed when let go.
final class GuardedRoom: @unchecked Sendable {
    /// The first byte, 16-byte aligned.
    let base: UnsafeMutableRawPointer

    /// `count` bytes (a multiple of 16), zeroed; `nil` when no guarded memory is to be had.
    init?(count: Int) {
        precondition(count > 0 && count % 16 == 0, "room in 16-byte steps")
        guard (try? Sodium.ready()) != nil, let base = sodium_malloc(count) else { return nil }
        sodium_memzero(base, count)
        self.base = base
    }

    deinit {
        sodium_free(base)
    }
}
