/// A byte buffer handed to a background job and back, so the job writes into the room of
/// the bytes it held before instead of fresh memory, which the kernel faults in and zeroes
/// a page at a time (a sealed batch or scratch page is hundreds of kilobytes, written once).
///
/// `@unchecked Sendable`: its owner hands it to one job at a time and takes it back only
/// after waiting for that job, so the job and the owner never touch it at once.
final class ReusedBytes: @unchecked Sendable {
    /// The bytes, or the room of the bytes held before.
    var bytes: [UInt8] = []
}
