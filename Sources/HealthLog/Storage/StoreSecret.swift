/// What opens an encrypted store: a passphrase, a key file, or the key `healthlog unlock`
/// left in the user's keyring. A plaintext store needs none and ignores one given.
public enum StoreSecret: Sendable {
    /// A passphrase, as UTF-8 bytes (a trailing newline is not removed).
    case passphrase([UInt8])
    /// A file whose whole content is the passphrase, less one trailing newline.
    case passphraseFile(String)
    /// A key file: at least 32 bytes, random, used as they are (no key derivation).
    case keyFile(String)
    /// The keys `healthlog unlock` keeps in the user's kernel keyring for this store.
    case unlocked
}
