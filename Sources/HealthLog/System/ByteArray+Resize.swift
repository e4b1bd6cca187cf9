extension [UInt8] {
    /// Makes the array `count` bytes long for a writer or read to overwrite, zeroing no more
    /// than it must: shortened in place, lengthened within its capacity by the missing bytes
    /// only, else replaced by an uninitialized buffer. A buffer filled again and again keeps
    /// its room, so it is neither allocated nor faulted in afresh each time.
    mutating func resize(forOverwrite count: Int) {
        if self.count > count {
            removeLast(self.count - count)
        } else if capacity >= count {
            append(contentsOf: repeatElement(0, count: count - self.count))
        } else {
            self = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
    }
}
