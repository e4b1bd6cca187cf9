import Testing
@testable import HealthLog

/// A store's keys and ciphers by epoch (``EpochTable``) behave as the dictionary they replace.
@Suite("Epoch tables")
struct EpochTableTests {
    /// Values set, replaced and removed read back by epoch, and the table gives back the
    /// dictionary it was made from.
    @Test func behavesAsADictionary() {
        var table = EpochTable<UnitCipher>()
        #expect(table.isEmpty && table[1] == nil)
        table[3] = .aes256GCM
        table[1] = .xchacha20Poly1305
        table[3] = .xchacha20Poly1305
        #expect(table[3] == .xchacha20Poly1305 && table[1] == .xchacha20Poly1305 && table[2] == nil)
        table[1] = nil
        #expect(table[1] == nil && table.epochs == [3] && !table.isEmpty)
        let dictionary: [UInt32: UnitCipher] = [0: .xchacha20Poly1305, 7: .aes256GCM, 2: .aes256GCM]
        let made = EpochTable(dictionary)
        #expect(made.epochs == [0, 2, 7] && made[7] == .aes256GCM && made.dictionary == dictionary)
    }
}
