#if !canImport(Darwin)
/// The app or device that recorded samples, as HealthKit's `HKSource`: a store knows a
/// source by its name, which serves as its bundle identifier too.
public final class HKSource: NSObject, @unchecked Sendable {
    /// The source's name.
    public let name: String
    /// The source's bundle identifier (its name, when the store recorded no other).
    public let bundleIdentifier: String

    init(name: String, bundleIdentifier: String? = nil) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier ?? name
    }

    /// This program, which the samples it saves are recorded as coming from.
    public class func `default`() -> HKSource {
        HKSource(name: ProcessInfo.processInfo.processName)
    }

    /// Equal objects hash alike.
    public override var hash: Int { name.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKSource)?.name == name }
    /// A description, for logs.
    public override var description: String { name }
}

/// A source at a version, as HealthKit's `HKSourceRevision`.
public final class HKSourceRevision: NSObject, @unchecked Sendable {
    /// The source.
    public let source: HKSource
    /// Its version, when recorded.
    public let version: String?
    /// The product type (not recorded in a store).
    public let productType: String?

    /// A revision of `source`.
    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        self.productType = nil
    }

    /// Equal objects hash alike.
    public override var hash: Int { source.hash }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKSourceRevision else { return false }
        return other.source == source && other.version == version
    }
}

/// The device that recorded a sample, as HealthKit's `HKDevice`. A store keeps a device as
/// the text Apple's exports write (`<<HKDevice: …>, name:Apple Watch, manufacturer:Apple
/// Inc., model:Watch, hardware:Watch6,2, software:9.0>`); its fields are read from it.
public final class HKDevice: NSObject, @unchecked Sendable {
    /// The device's name.
    public let name: String?
    /// Its manufacturer.
    public let manufacturer: String?
    /// Its model.
    public let model: String?
    /// Its hardware version.
    public let hardwareVersion: String?
    /// Its firmware version.
    public let firmwareVersion: String?
    /// Its software version.
    public let softwareVersion: String?
    /// Its identifier on the recording device.
    public let localIdentifier: String?
    /// Its UDI device identifier.
    public let udiDeviceIdentifier: String?
    /// The text the store keeps.
    let text: String

    /// A device with these properties.
    public init(
        name: String?, manufacturer: String?, model: String?, hardwareVersion: String?, firmwareVersion: String?,
        softwareVersion: String?, localIdentifier: String?, udiDeviceIdentifier: String?
    ) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
        let fields: [(String, String?)] = [
            ("name", name), ("manufacturer", manufacturer), ("model", model), ("hardware", hardwareVersion), ("firmware", firmwareVersion),
            ("software", softwareVersion), ("localIdentifier", localIdentifier), ("UDIDeviceIdentifier", udiDeviceIdentifier),
        ]
        text = "<<HKDevice>, " + fields.compactMap { key, value in value.map { "\(key):\($0)" } }.joined(separator: ", ") + ">"
    }

    /// The device a store's text describes.
    init(text: String) {
        self.text = text
        var fields: [String: String] = [:]
        let body = text.hasSuffix(">") ? String(text.dropLast()) : text
        for part in body.components(separatedBy: ", ") {
            guard let colon = part.firstIndex(of: ":"), !part.hasPrefix("<") else { continue }
            fields[String(part[..<colon])] = String(part[part.index(after: colon)...])
        }
        name = fields["name"] ?? (fields.isEmpty ? text : nil)
        manufacturer = fields["manufacturer"]
        model = fields["model"]
        hardwareVersion = fields["hardware"]
        firmwareVersion = fields["firmware"]
        softwareVersion = fields["software"]
        localIdentifier = fields["localIdentifier"]
        udiDeviceIdentifier = fields["UDIDeviceIdentifier"]
    }

    /// This machine (no fields recorded).
    public class func local() -> HKDevice {
        HKDevice(name: ProcessInfo.processInfo.hostName, manufacturer: nil, model: nil, hardwareVersion: nil, firmwareVersion: nil,
                 softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
    }

    /// Equal objects hash alike.
    public override var hash: Int { text.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKDevice)?.text == text }
    /// A description, for logs.
    public override var description: String { text }
}
#endif
