import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The count of correlation members also found at top level, in memory that does not grow
/// with the members: the members spilled, then taken a share at a time.
@Suite("Import: correlation members also at top level")
struct CorrelationMembersTests {
    /// Members of two types (one UUID given twice), and top-level UUIDs that name some of
    /// them, some twice, and others that are no member's.
    static func sample() -> (members: [(SampleUUID, String)], topLevel: [SampleUUID]) {
        var random = SeededRandom(state: 11)
        let uuids = (0..<300).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        var members = uuids.enumerated().map { ($0.element, $0.offset % 3 == 0 ? "HKQuantityTypeIdentifierDietaryProtein" : "HKQuantityTypeIdentifierDietaryEnergyConsumed") }
        members.append(members[4])
        var topLevel = uuids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        topLevel += topLevel.prefix(20)
        topLevel += (0..<50).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        return (members, topLevel)
    }

    @Test("Every share together counts each member found at top level once, by its type, as one table of them all would", arguments: [false, true], [1 << 17, 64, 1])
    func shares(sealed: Bool, membersPerPass: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (memberList, topLevel) = Self.sample()
        let members = CorrelationMembers(near: dir.file("store"), sealing: sealed ? try ScratchCipher.forProcess() : nil, membersPerPass: membersPerPass)
        for (uuid, type) in memberList { try members.add(uuid, type: type) }
        var reads = 0
        let counts = try members.alsoTopLevel { visit in
            reads += 1
            for uuid in topLevel { visit(uuid) }
        }
        var expected: [String: Int] = [:]
        var typeOf: [SampleUUID: String] = [:]
        for (uuid, type) in memberList where typeOf[uuid] == nil { typeOf[uuid] = type }
        for uuid in Set(topLevel) { if let type = typeOf[uuid] { expected[type, default: 0] += 1 } }
        #expect(counts == expected)
        #expect(expected.values.reduce(0, +) == 150)
        // The top-level UUIDs are read once a share.
        #expect(reads == members.passes)
        #expect(members.passes == (memberList.count + membersPerPass - 1) / membersPerPass)
    }

    @Test("A share holds only its own members: the tables together hold each member once")
    func shareSizes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (memberList, _) = Self.sample()
        let members = CorrelationMembers(near: dir.file("store"), sealing: nil, membersPerPass: 50)
        for (uuid, type) in memberList { try members.add(uuid, type: type) }
        #expect(members.passes == 7)
        var held = 0
        for index in 0..<members.passes {
            let pass = try members.pass(index)
            held += pass.memberCount
            #expect(pass.memberCount < 100)
        }
        #expect(held == 300)
    }

    @Test("Without members, the top-level UUIDs are not read")
    func none() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let members = CorrelationMembers(near: dir.file("store"), sealing: nil)
        var reads = 0
        #expect(try members.alsoTopLevel { _ in reads += 1 } == [:])
        #expect(reads == 0)
    }
}
