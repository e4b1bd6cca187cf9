import Testing
@testable import HealthLog

/// Small secrets share one guarded allocation (``SecretPool``): each keeps exactly the bytes
/// it was filled with, however fills nest, throw or run at once.
@Suite("Secret pool")
struct SecretPoolTests {
    /// Room is handed out aligned, never twice, and refused once the pool is full.
    @Test func handsOutRoomOnce() throws {
        try Sodium.ready()
        let pool = SecretPool(capacity: 4096)
        let first = try #require(pool.reserve(40))
        let second = try #require(pool.reserve(100))
        #expect(Int(bitPattern: first) % 16 == 0 && Int(bitPattern: second) % 16 == 0)
        #expect(first.distance(to: second) >= 40)
        #expect(pool.reserve(4096) == nil)
        let third = try #require(pool.reserve(16))
        #expect(second.distance(to: third) >= 100)
    }

    /// The pool is writable inside `writing`, nested or not, and bytes written there stay.
    @Test func writesNest() throws {
        try Sodium.ready()
        let pool = SecretPool(capacity: 4096)
        let room = try #require(pool.reserve(64))
        pool.writing {
            room.storeBytes(of: 0x11, as: UInt8.self)
            pool.writing { (room + 1).storeBytes(of: 0x22, as: UInt8.self) }
            (room + 2).storeBytes(of: 0x33, as: UInt8.self)
        }
        #expect(room.load(as: UInt8.self) == 0x11 && room.load(fromByteOffset: 1, as: UInt8.self) == 0x22 && room.load(fromByteOffset: 2, as: UInt8.self) == 0x33)
    }

    /// A pool whose allocation is made inside `writing` (the first secret of a process
    /// filled while a key slot is unlocked) stays writable until that writer is done.
    @Test func allocatedWhileWriting() throws {
        try Sodium.ready()
        let pool = SecretPool(capacity: 4096)
        let room = pool.writing { () -> UnsafeMutableRawPointer? in
            let room = pool.reserve(32)
            room?.storeBytes(of: 0x44, as: UInt8.self)
            pool.writing { (room! + 1).storeBytes(of: 0x55, as: UInt8.self) }
            (room! + 2).storeBytes(of: 0x66, as: UInt8.self)
            return room
        }
        let written = try #require(room)
        #expect(written.load(as: UInt8.self) == 0x44 && written.load(fromByteOffset: 1, as: UInt8.self) == 0x55 && written.load(fromByteOffset: 2, as: UInt8.self) == 0x66)
    }

    /// `count` bytes that differ with `seed`.
    static func pattern(_ seed: UInt8, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) }
    }

    /// Secrets made inside another's fill, after a fill that threw, and on several threads at
    /// once each read back what they were filled with.
    @Test func secretsKeepTheirBytes() async throws {
        struct Refused: Error {}
        var inner: SecretBytes?
        let outer = try SecretBytes(count: 48) { out in
            inner = try Self.pattern(7, 24).withUnsafeBytes { try SecretBytes(copying: $0) }
            out.copyBytes(from: Self.pattern(3, 48))
        }
        #expect(throws: Refused.self) { _ = try SecretBytes(count: 32) { _ in throw Refused() } }
        let after = try Self.pattern(9, 32).withUnsafeBytes { try SecretBytes(copying: $0) }
        let made = try await withThrowingTaskGroup(of: (UInt8, SecretBytes).self) { group in
            for seed in UInt8(20)..<UInt8(36) {
                group.addTask { (seed, try Self.pattern(seed, 36).withUnsafeBytes { try SecretBytes(copying: $0) }) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outer.withUnsafeBytes(Array.init) == Self.pattern(3, 48))
        #expect(inner?.withUnsafeBytes(Array.init) == Self.pattern(7, 24))
        #expect(after.withUnsafeBytes(Array.init) == Self.pattern(9, 32))
        for (seed, secret) in made { #expect(secret.withUnsafeBytes(Array.init) == Self.pattern(seed, 36)) }
    }
}
