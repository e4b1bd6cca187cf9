extension SampleFields {
    /// A sample's source, source version, device and metadata in one object that never
    /// changes: copying a sample retains it once instead of three strings and a dictionary,
    /// and the samples a query decodes from lines that end alike share one. Setting one of
    /// them gives the sample a new object, so ``SampleFields`` stays a value. Equal and
    /// hashed by what it holds, not by identity.
    final class Shared: Hashable, Sendable {
        let source: String?
        let sourceVersion: String?
        let device: String?
        let metadata: [String: MetadataValue]

        /// The four fields.
        init(source: String?, sourceVersion: String?, device: String?, metadata: [String: MetadataValue]) {
            self.source = source
            self.sourceVersion = sourceVersion
            self.device = device
            self.metadata = metadata
        }

        /// No source, version or device, and no metadata: what most new samples' fields share.
        static let bare = Shared(source: nil, sourceVersion: nil, device: nil, metadata: [:])

        /// Whether the two hold the same fields.
        static func == (a: Shared, b: Shared) -> Bool {
            a === b || (a.source == b.source && a.sourceVersion == b.sourceVersion && a.device == b.device && a.metadata == b.metadata)
        }

        /// Hashes the fields.
        func hash(into hasher: inout Hasher) {
            hasher.combine(source)
            hasher.combine(sourceVersion)
            hasher.combine(device)
            hasher.combine(metadata)
        }
    }
}
