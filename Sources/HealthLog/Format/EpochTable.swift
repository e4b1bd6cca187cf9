/// Values by key epoch, for the few epochs a store has: the epochs and their values in two
/// arrays, looked up in order. Opening an encrypted store needs no hashed table of epochs:
/// the first `Dictionary` or `Set` of `UInt32` a process makes costs about 150,000
/// instructions of runtime type and conformance lookups, a tenth of what an encrypted
/// rare-type query adds to a plaintext one.
struct EpochTable<Value: Sendable>: Sendable {
    /// The epochs, in the order they were added.
    private(set) var epochs: [UInt32] = []
    /// Each epoch's value, at its epoch's index.
    private(set) var values: [Value] = []

    /// An empty table.
    init() {}

    /// The entries of `dictionary`, by ascending epoch.
    init(_ dictionary: [UInt32: Value]) {
        for epoch in dictionary.keys.sorted() { self[epoch] = dictionary[epoch] }
    }

    /// The value of `epoch`; `nil` when it has none. Setting `nil` removes the epoch.
    subscript(epoch: UInt32) -> Value? {
        get { epochs.firstIndex(of: epoch).map { values[$0] } }
        set {
            if let index = epochs.firstIndex(of: epoch) {
                if let newValue {
                    values[index] = newValue
                } else {
                    epochs.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                epochs.append(epoch)
                values.append(newValue)
            }
        }
    }

    /// Whether it holds no epoch.
    var isEmpty: Bool { epochs.isEmpty }

    /// The same entries as a dictionary (for the key commands, which make and list slots).
    var dictionary: [UInt32: Value] {
        Dictionary(uniqueKeysWithValues: zip(epochs, values))
    }
}
