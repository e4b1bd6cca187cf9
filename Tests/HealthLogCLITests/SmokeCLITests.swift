import HealthLogTestSupport
import Testing

@Suite("CLI smoke")
struct SmokeCLITests {
    @Test("The tool prints its help and exits 0")
    func help() throws {
        let result = try HealthLogBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW:"))
    }
}
