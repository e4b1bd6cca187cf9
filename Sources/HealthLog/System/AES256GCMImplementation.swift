import Synchronization

extension AES256GCM {
    /// Which library runs AES-256-GCM for a unit: the same cipher and the same bytes
    /// either way, at a different cost.
    enum Implementation: Sendable {
        /// libsodium's `crypto_aead_aes256gcm` (AES-NI and PCLMULQDQ): no set-up, and the
        /// faster of the two on a unit of a few hundred bytes (0.15 µs against 0.4 µs).
        case libsodium
        /// OpenSSL's `AES-256-GCM` (``OpenSSLGCM``): two to three times libsodium's speed in
        /// bulk (4.4 GB/s against 1.65 opening 32 KiB units on a CPU with VAES), and the
        /// only one on a CPU without AES-NI; finding it costs about 0.1 million
        /// instructions at its first use in a process, and keying a context a few thousand.
        case openSSL
    }

    /// Chooses the implementation for each unit of a process: libsodium until the process
    /// has run ``threshold`` bytes through AES-256-GCM (or a reader said it is about to,
    /// ``expect(_:)``), OpenSSL from then on for units of ``unitBytes`` or more, so OpenSSL's
    /// set-up is paid only where its faster bulk pays it back. Where OpenSSL's cipher cannot
    /// be found (its provider missing), libsodium stays.
    final class BulkSwitch: Sendable {
        /// The bytes past which the process takes OpenSSL.
        let threshold: Atomic<Int>
        /// The smallest unit OpenSSL takes once switched: below it libsodium is faster.
        static let unitBytes = 1024
        /// The bytes sealed and opened so far.
        private let processed = Atomic<Int>(0)
        /// Whether OpenSSL is taken (once set, for good).
        private let switched = Atomic<Bool>(false)
        /// Whether OpenSSL's cipher is there to switch to, asked only on switching (asking
        /// loads OpenSSL's provider, which costs what the switch is to avoid).
        private let isAvailable: @Sendable () -> Bool

        /// A switch at `threshold` bytes, to OpenSSL when `isAvailable` says its cipher is.
        init(threshold: Int, isAvailable: @escaping @Sendable () -> Bool) {
            self.threshold = Atomic(threshold)
            self.isAvailable = isAvailable
        }

        /// Whether units of ``unitBytes`` or more now go to OpenSSL.
        var isSwitched: Bool { switched.load(ordering: .relaxed) }

        /// A reader is about to open `bytes` of sealed units: when that reaches the
        /// threshold, the switch is made now, so OpenSSL opens them from the first.
        func expect(_ bytes: Int) {
            if bytes >= threshold.load(ordering: .relaxed) { flip() }
        }

        /// The implementation for a unit of `count` bytes, counted as processed.
        func implementation(for count: Int) -> Implementation {
            if !isSwitched {
                let total = processed.add(count, ordering: .relaxed).newValue
                guard total >= threshold.load(ordering: .relaxed) else { return .libsodium }
                flip()
            }
            return isSwitched && count >= Self.unitBytes ? .openSSL : .libsodium
        }

        private func flip() {
            if !isSwitched, isAvailable() { switched.store(true, ordering: .relaxed) }
        }
    }
}
