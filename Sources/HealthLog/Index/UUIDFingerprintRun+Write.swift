extension UUIDFingerprintRun {
    /// Encodes the keys of one run, given in ascending order, into its body (see
    /// ``UUIDFingerprintRun`` for the layout); memory holds the encoded run, about 3 bytes a key.
    struct Encoder {
        /// The run's range.
        let from: UInt64
        let to: UInt64
        /// How many keys the run holds.
        let count: Int
        /// Low fingerprint bits in a field.
        let lowBits: Int
        /// Block bits in a field.
        let blockBits: Int
        /// The block shift.
        let blockShift: Int
        /// The run's last block number.
        private let lastBlock: UInt64
        /// The bucket bit vector.
        private var high: [UInt64]
        /// The packed fields.
        private var packed: [UInt64]
        /// Keys appended so far.
        private var appended = 0
        /// The last key appended.
        private var last: UInt64 = 0

        /// An encoder of `count` keys for a run covering `from...to`.
        init(count: Int, from: UInt64, to: UInt64) {
            self.from = from
            self.to = to
            self.count = count
            lowBits = 32 - UUIDFingerprintRun.highBits(count: count)
            blockShift = UUIDFingerprint.blockShift(from: from, to: to)
            lastBlock = UUIDFingerprintRun.lastBlock(from: from, to: to, shift: blockShift)
            blockBits = UUIDFingerprintRun.bits(for: lastBlock)
            high = [UInt64](repeating: 0, count: count == 0 ? 0 : (count + (1 << (32 - lowBits)) + 63) / 64)
            packed = [UInt64](repeating: 0, count: count == 0 ? 0 : UUIDFingerprintRun.packedWords(count: count, width: lowBits + blockBits))
        }

        /// Appends `key` (fingerprint << 32 | block), at least the one before.
        mutating func append(_ key: UInt64) {
            precondition(appended < count && key >= last, "keys come in order, as many as announced")
            precondition(key & 0xFFFF_FFFF <= lastBlock, "a block of the run")
            let hash = key >> 32
            let position = Int(hash >> UInt64(lowBits)) + appended
            high[position / 64] |= 1 << UInt64(position % 64)
            let width = lowBits + blockBits
            let value = (key & 0xFFFF_FFFF) << UInt64(lowBits) | hash & ((1 << UInt64(lowBits)) - 1)
            if width > 0 {
                let bit = appended * width
                let offset = bit % 64
                packed[bit / 64] |= value << UInt64(offset)
                if offset + width > 64 { packed[bit / 64 + 1] |= value >> UInt64(64 - offset) }
            }
            appended += 1
            last = key
        }

        /// The run file's bytes, header and body, bound to `binding` (the log's at ``to``),
        /// the body sealed with `cipher` (`nil`: a plaintext store's run). The encoder lets
        /// its words go as it copies them, so the run is held about twice at most, not three
        /// times; it is empty afterwards.
        mutating func takeFileBytes(binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
            precondition(appended == count, "every announced key was appended")
            var body: [UInt8] = []
            body.reserveCapacity(8 * (high.count + packed.count))
            high.withUnsafeBytes { raw in body.append(contentsOf: raw) }
            high = []
            packed.withUnsafeBytes { raw in body.append(contentsOf: raw) }
            packed = []
            #if _endian(big)
            preconditionFailure("run files are little-endian")
            #endif
            let (from, to, count, widths) = (from, to, UInt64(count), [UInt8(lowBits), UInt8(blockBits), UInt8(blockShift), 0])
            let naming = { (header: inout ByteWriter) in
                header.append(from)
                header.append(to)
                header.append(count)
                header.append(bytes: widths)
            }
            if let cipher, !body.isEmpty {
                var sealed: [UInt8] = []
                body.withUnsafeBytes { UUIDFingerprintRun.sealPages($0, first: 0, cipher: cipher, prefix: UUIDFingerprintRun.file.prefix(naming), into: &sealed) }
                body = sealed
            }
            return UUIDFingerprintRun.file.encode(body: body) { header in
                naming(&header)
                header.append(body.isEmpty ? 0 : body.withUnsafeBytes { CRC32C.checksum($0) })
                binding.write(to: &header)
            }
        }

        /// Writes the run, bound to `binding` and its body sealed with `cipher`, into
        /// `directory` (temporary file and rename; derived data, so not synced); returns its path.
        mutating func write(directory: String, binding: LogBinding, cipher: StoreCipher?) throws -> String {
            let path = directory + "/" + UUIDFingerprintRun.fileName(from: from, to: to)
            try SmallFile.write(path, takeFileBytes(binding: binding, cipher: cipher), sync: false)
            return path
        }
    }

    /// Writes the run of `keys` (any order) covering `from...to`, bound to `binding` and
    /// sealed with `cipher`, into `directory`; returns it.
    static func write(keys: [UInt64], from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, directory: String) throws -> UUIDFingerprintRun {
        var encoder = Encoder(count: keys.count, from: from, to: to)
        for key in sorted(keys) { encoder.append(key) }
        return try open(encoder.write(directory: directory, binding: binding, cipher: cipher), cipher: cipher)
    }

    /// `bytes` (a whole run file) bound to `binding` instead: the binding and the header
    /// checksum rewritten, for a run encoded before its append committed (a sealed body's
    /// place leaves the binding out, so it still opens).
    static func rebound(_ bytes: [UInt8], to binding: LogBinding) -> [UInt8] {
        var fields = ByteWriter()
        binding.write(to: &fields)
        return file.resealed(bytes, at: bindingOffset, with: fields.bytes)
    }

    /// Binds `bytes` (a whole run file) to `binding` in place, as ``rebound(_:to:)`` does.
    static func rebind(_ bytes: inout [UInt8], to binding: LogBinding) {
        var fields = ByteWriter()
        binding.write(to: &fields)
        file.reseal(&bytes, at: bindingOffset, with: fields.bytes)
    }

    /// `keys` in ascending order (``BucketSort``).
    static func sorted(_ keys: [UInt64]) -> [UInt64] {
        var out: [UInt64] = []
        sort(keys, into: &out)
        return out
    }

    /// Puts `keys` in ascending order into `out`, reusing its storage (``BucketSort``).
    static func sort(_ keys: [UInt64], into out: inout [UInt64]) {
        keys.withUnsafeBufferPointer { keys in
            BucketSort.sort(keys, into: &out, bucket: { key, bits in Int(key >> UInt64(64 - bits)) }, transform: { $0 }, by: <)
        }
    }

    /// The run just written at `path`, sealed with `cipher`.
    static func open(_ path: String, cipher: StoreCipher?) throws -> UUIDFingerprintRun {
        guard let run = UUIDFingerprintRun(path: path, cipher: cipher) else { throw HealthLogError(.io, "\(path): written run does not read back") }
        return run
    }
}
