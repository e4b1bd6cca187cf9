import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The members of an append's correlations: each must be added by the same append, before
/// or after its correlation, and only those not added yet when their correlation comes are
/// kept for the check at the end.
@Suite("Append correlation members")
struct CorrelationMemberTests {
    private static let t0 = "2024-03-01T10:00:00Z"

    /// An add of a systolic blood pressure with UUID `uuid`.
    private static func member(_ uuid: SampleUUID) -> String {
        #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierBloodPressureSystolic","start":"\#(t0)","value":120,"unit":"mmHg"}"#
    }

    /// An add of a blood-pressure correlation of `members`.
    private static func correlation(_ uuid: SampleUUID, _ members: [SampleUUID]) -> String {
        let objects = members.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"op":"add","uuid":"\#(uuid)","type":"HKCorrelationTypeIdentifierBloodPressure","start":"\#(t0)","objects":[\#(objects)]}"#
    }

    /// Runs an append of `lines` with `chunkEvents` events per chunk; the session.
    private static func append(_ lines: [String], into directory: String, chunkEvents: Int) throws -> (AppendSession, AppendSummary) {
        var options = StoreOptions()
        options.appendChunkEvents = chunkEvents
        let session = try AppendSession(StoreLayout(directory: directory), options: options)
        let summary = try session.run([LineReader(bytes: Array(lines.map { $0 + "\n" }.joined().utf8))])
        return (session, summary)
    }

    @Test("Members added before their correlations are not kept, across written-out chunks; a member added after is kept and accepted", arguments: [4, 1 << 15])
    func membersBeforeAreNotKept(_ chunkEvents: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var lines: [String] = []
        for k in 0..<300 {
            let first = SampleUUID(high: 1, low: UInt64(3 * k))
            let second = SampleUUID(high: 1, low: UInt64(3 * k + 1))
            lines += [Self.member(first), Self.member(second), Self.correlation(SampleUUID(high: 1, low: UInt64(3 * k + 2)), [first, second])]
        }
        let later = SampleUUID(high: 2, low: 1)
        lines += [Self.correlation(SampleUUID(high: 2, low: 2), [SampleUUID(high: 1, low: 0), later]), Self.member(later)]
        let (session, summary) = try Self.append(lines, into: dir.file("store"), chunkEvents: chunkEvents)
        #expect(summary.added == 902)
        #expect(session.pendingMemberCount == 1, "only the member added after its correlation")
    }

    @Test("A member no line of the append adds is refused with its correlation's line, and nothing is written")
    func missingMemberRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = SampleUUID(high: 1, low: 1)
        let absent = SampleUUID(high: 9, low: 9)
        let lines = [Self.member(first), Self.correlation(SampleUUID(high: 1, low: 2), [first, absent]), Self.member(SampleUUID(high: 1, low: 3))]
        #expect {
            _ = try Self.append(lines, into: dir.file("store"), chunkEvents: 1)
        } throws: { error in
            (error as? HealthLogError)?.message == "line 2: field 'objects': member \(absent) is not added in this append"
        }
        #expect(!HealthStore(directory: dir.file("store")).exists)
    }
}
