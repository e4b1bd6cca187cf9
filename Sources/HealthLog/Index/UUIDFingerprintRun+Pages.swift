import Synchronization

extension UUIDFingerprintRun {
    /// Plaintext bytes in a page of a sealed run's body (the last page may hold fewer).
    static let pageBytes = 4096
    /// A sealed page's bytes in the file: its plaintext's and a unit's overhead.
    static let sealedPageBytes = pageBytes + StoreCipher.overhead

    /// The sealed pages of a body of `bodyBytes` plaintext bytes.
    static func pageCount(bodyBytes: Int) -> Int { (bodyBytes + pageBytes - 1) / pageBytes }

    /// The body of a sealed run, read a page at a time: each page is its own unit (unit
    /// number = page number), opened from the file when a read needs it and kept in a slot.
    /// A run of up to ``wholePages`` pages (a UUID index run of about a million events) has
    /// a slot for every page, so once checked it is read without opening a page again (an
    /// append looks up each of its UUIDs); a larger one has ``slots``, so it holds that many
    /// pages in memory, not its body. The run
    /// was checked whole when it opened; a page that does not open later (the file changed
    /// under the process) reads as zeros and marks the run damaged (``failedPage``), which
    /// lookups and cursors check before they trust what they read.
    final class SealedPages {
        /// Pages held at a time by a run of more than ``wholePages`` pages.
        static let slots = 32
        /// The most pages a run holds all of (4 MiB of plaintext).
        static let wholePages = 1024
        /// The u64 words in a page.
        private static let pageWords = UUIDFingerprintRun.pageBytes / 8

        private let fd: FileDescriptor
        private let cipher: StoreCipher
        /// The header bytes a unit's place starts with.
        private let prefix: [UInt8]
        /// The body's plaintext length.
        let bodyBytes: Int
        /// The body's pages.
        let pageCount: Int
        /// The pages held, what they hold and the first page that did not open.
        private let held: Mutex<Held>
        /// Whether a page did not open (read without the lock, by cursors at every key).
        private let failed = Atomic<Bool>(false)
        /// The page slots: one per page for a run of up to the `wholePages` it was made with,
        /// else ``slots``.
        let slotCount: Int

        /// The slots: page numbers (−1 for none), their plaintext, the stored bytes of the
        /// page being opened.
        private struct Held {
            var pages: [Int]
            var plain: [UInt8]
            var stored: [UInt8] = []
            var failedPage: Int?

            init(slots: Int) {
                pages = [Int](repeating: -1, count: slots)
                plain = [UInt8](repeating: 0, count: slots * UUIDFingerprintRun.pageBytes)
            }
        }

        /// The sealed body of `bodyBytes` plaintext bytes of the run file open at `fd`, its
        /// units placed after `prefix` (the header's first ``UUIDFingerprintRun/placeLength``
        /// bytes) and sealed with `cipher`, holding all of its pages when there are at most
        /// `wholePages`. Takes `fd`, which it closes.
        init(_ fd: FileDescriptor, cipher: StoreCipher, prefix: [UInt8], bodyBytes: Int, wholePages: Int = SealedPages.wholePages) {
            self.fd = fd
            self.cipher = cipher
            self.prefix = prefix
            self.bodyBytes = bodyBytes
            pageCount = UUIDFingerprintRun.pageCount(bodyBytes: bodyBytes)
            slotCount = pageCount <= wholePages ? max(pageCount, 1) : Self.slots
            held = Mutex(Held(slots: slotCount))
        }

        deinit { fd.close() }

        /// Where page `page`'s unit starts in the file.
        static func offset(ofPage page: Int) -> Int { UUIDFingerprintRun.headerLength + page * UUIDFingerprintRun.sealedPageBytes }

        /// Opens every page in turn; the first that does not open, or `nil`.
        func check() -> Int? {
            held.withLock { held in
                for page in 0..<pageCount where !load(page, &held) { return page }
                return nil
            }
        }

        /// Word `w` of the body (0 past its end, or in a page that does not open).
        func word(_ w: Int) -> UInt64 {
            let page = w / Self.pageWords
            guard page < pageCount else { return 0 }
            return held.withLock { held in
                let slot = page % slotCount
                guard held.pages[slot] == page || load(page, &held) else { return 0 }
                return held.plain.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: (slot * Self.pageWords + w % Self.pageWords) * 8, as: UInt64.self)) }
            }
        }

        /// Whether a page did not open since the run was checked.
        var isDamaged: Bool { failed.load(ordering: .relaxed) }

        /// The first page that did not open, if any.
        var failedPage: Int? { held.withLock { $0.failedPage } }

        /// Reads and opens page `page` into its slot; `false` (the page noted as failed) when
        /// it cannot be read whole or does not open.
        private func load(_ page: Int, _ held: inout Held) -> Bool {
            let slot = page % slotCount
            held.pages[slot] = -1
            let length = min(UUIDFingerprintRun.pageBytes, bodyBytes - page * UUIDFingerprintRun.pageBytes)
            held.stored.resize(forOverwrite: length + StoreCipher.overhead)
            let opened =
                (try? fd.read(into: &held.stored, at: Self.offset(ofPage: page))) == held.stored.count
                && held.stored.withUnsafeBytes { unit in
                    held.plain.withUnsafeMutableBytes { plain in
                        let at = slot * UUIDFingerprintRun.pageBytes
                        return cipher.open(
                            unit, .derivedFile, place: SmallFile.place(prefix, unit: UInt32(page)), into: UnsafeMutableRawBufferPointer(rebasing: plain[at..<at + length]))
                    }
                }
            guard opened else {
                if held.failedPage == nil { held.failedPage = page }
                failed.store(true, ordering: .relaxed)
                return false
            }
            held.pages[slot] = page
            return true
        }
    }
}

extension UUIDFingerprintRun {
    /// Appends to `out` the pages of `plain` (a body's bytes from the start of page
    /// `first`, whole pages but for the body's last) sealed with `cipher` as units after
    /// `prefix` (the header's first ``placeLength`` bytes).
    static func sealPages(_ plain: UnsafeRawBufferPointer, first: Int, cipher: StoreCipher, prefix: [UInt8], into out: inout [UInt8]) {
        let pages = pageCount(bodyBytes: plain.count)
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: plain.count + pages * StoreCipher.overhead))
        out.withUnsafeMutableBytes { out in
            for page in 0..<pages {
                let from = page * pageBytes
                let to = min(plain.count, from + pageBytes)
                let at = start + page * sealedPageBytes
                cipher.seal(
                    UnsafeRawBufferPointer(rebasing: plain[from..<to]), .derivedFile, place: SmallFile.place(prefix[0..<placeLength], unit: UInt32(first + page)),
                    into: UnsafeMutableRawBufferPointer(rebasing: out[at..<at + to - from + StoreCipher.overhead]))
            }
        }
    }
}
