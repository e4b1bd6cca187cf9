#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file's bytes mapped read-only into memory (`mmap(2)` with `MAP_PRIVATE`), from
/// the descriptor's current offset to the end the file had when it was mapped; unmapped
/// when the last reference goes. Reading the input this way costs no copy into a buffer,
/// and the pages are read by whichever thread touches them first.
///
/// ``release(below:)`` drops the pages before an offset (`madvise(MADV_DONTNEED)`) once
/// they are consumed, so a mapped input of any size adds a bounded amount to the process's
/// resident memory. A file truncated by another process while mapped would fault on the
/// missing pages (`SIGBUS`), as any `mmap` reader would; appends read files the user names.
///
/// `@unchecked Sendable`: the mapping is read-only and never changes while it exists
/// (`release(below:)` only lets the kernel drop pages it can read back from the file), so
/// threads may read it concurrently.
final class MappedFile: @unchecked Sendable {
    /// The first byte of the mapping (the start of the file).
    private let base: UnsafeMutableRawPointer
    /// The mapping's length (the file's size).
    private let length: Int
    /// Where the bytes to read start: the descriptor's offset when the file was mapped.
    let startOffset: Int
    /// How many pages from the start were already released. Only the consumer of the
    /// chunks, on one thread, calls ``release(below:)``, which alone touches it.
    private var releasedPages = 0

    /// The bytes of the regular file open at `fd`, from its current offset on; `nil` when
    /// `fd` is not a regular file, holds nothing past its offset, or cannot be mapped
    /// (then the caller reads it with `read(2)`).
    init?(_ fd: FileDescriptor) {
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let offset = lseek(fd.rawValue, 0, SEEK_CUR)
        let size = Int(info.st_size)
        guard offset >= 0, Int(offset) < size else { return nil }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd.rawValue, 0), mapped != MAP_FAILED else { return nil }
        madvise(mapped, size, MADV_SEQUENTIAL)
        base = mapped
        length = size
        startOffset = Int(offset)
    }

    deinit {
        munmap(base, length)
    }

    /// The file's size when it was mapped.
    var count: Int { length }

    /// Calls `body` with the bytes at `range` (within ``count``).
    func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Lets the kernel drop every page of the mapping from this process's memory; reading
    /// them again reads them back from the file (for a file read again and again, not
    /// consumed once as ``release(below:)`` assumes).
    func releaseAll() {
        madvise(base, length, MADV_DONTNEED)
    }

    /// Lets the kernel drop the pages from the one holding `range`'s first byte to the last
    /// one wholly inside it from this process's memory, let go before or not (bytes read a
    /// second time); reading them again reads them back from the file.
    func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = range.lowerBound / page, end = min(range.upperBound, length) / page
        guard end > first else { return }
        madvise(base + first * page, (end - first) * page, MADV_DONTNEED)
    }

    /// Lets the kernel drop the pages wholly before `offset` from this process's memory;
    /// reading them again reads them back from the file.
    func release(below offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = min(offset, length) / page
        guard pages > releasedPages else { return }
        madvise(base + releasedPages * page, (pages - releasedPages) * page, MADV_DONTNEED)
        releasedPages = pages
    }
}
