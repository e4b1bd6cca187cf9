import HealthLog

/// `--cipher`, the AEAD a new key epoch seals with (`init --encrypt`, `key rotate`,
/// `restore --encrypt`).
enum CipherOption {
    /// The option, with `help` saying which command's epoch it chooses.
    static func declared(help: String) -> Option<UnitCipher> {
        Option(
            "--cipher", "name", help: help, synopsis: "--cipher " + UnitCipher.allCases.map(\.name).joined(separator: "|"),
            completion: .choices(UnitCipher.allCases.map(\.name))
        ) { text in
            guard let cipher = UnitCipher(name: text) else {
                throw HealthLogError(.badUsage, "--cipher takes \(UnitCipher.allCases.map(\.name).joined(separator: " or ")), not '\(text)'")
            }
            return cipher
        }
    }

    /// What the help says of the default.
    static let defaultNote = "default: aes-256-gcm on a CPU with AES instructions, else xchacha20-poly1305"
}
