import Foundation
import HealthLogTestSupport
import Testing

/// The libraries' public API is listed in `API.md`, so a change to it shows in review: the
/// listing must match what the sources declare, and every public declaration has a doc
/// comment.
@Suite("Public API")
struct PublicAPITests {
    /// The library modules a user imports.
    static let modules = ["HealthLog", "HealthLogImport", "HealthKit"]
    /// The committed listing.
    static let listingPath = PackageFiles.path("API.md")
    /// How to regenerate the listing.
    static let regenerate = "tools/api-listing"

    @Test("API.md lists the libraries' public API as the sources declare it")
    func listingIsCurrent() throws {
        let expected = try Self.listing()
        if ProcessInfo.processInfo.environment["HEALTHLOG_API_LISTING"] == "write" {
            try expected.write(toFile: Self.listingPath, atomically: true, encoding: .utf8)
            return
        }
        let committed = (try? String(contentsOfFile: Self.listingPath, encoding: .utf8)) ?? ""
        let now = Set(expected.split(separator: "\n")), listed = Set(committed.split(separator: "\n"))
        let added = now.subtracting(listed).sorted().map { "+ \($0)" }
        let removed = listed.subtracting(now).sorted().map { "- \($0)" }
        if committed != expected {
            Issue.record(
                """
                the public API differs from API.md; if the change is meant, run `\(Self.regenerate)` and commit API.md:
                \((added + removed).joined(separator: "\n"))
                """)
        }
    }

    @Test("Every public declaration has a doc comment")
    func everyDeclarationIsDocumented() throws {
        let missing = try Self.modules.flatMap { module in
            try Self.declarations(of: module).filter { !$0.isDocumented && !$0.isConformance }.map { "\($0.location): \($0.line)" }
        }
        #expect(missing.isEmpty, "public declarations without a doc comment:\n\(missing.joined(separator: "\n"))")
    }

    @Test("The scanner finds public declarations however they are written, and only those")
    func scannerReadsDeclarations() {
        let source = #"""
            /// A type.
            public struct Shown: Sendable {
                /// Multi-line, with a default closure and a comment inside.
                @discardableResult
                public func run(
                    _ name: String,  // the name
                    then: () -> Void = { print("}{") },
                ) throws -> Int { 0 }
                public private(set) var count = 0
                public static let odd = [1, 2, 3].filter { $0 % 2 == 1 }
                public var watched = 0 { didSet { print(watched) } }
                var hidden = 1
                let text = "public func fake() {"
                /* public func commented() */
                package func plumbing() {}
                /// Nested.
                public enum Kind: String { case a, b = "}", c }
            }
            struct Internal {
                public struct NotShown {}
            }
            public protocol Shape {
                var area: Double { get }
                func draw()
            }
            extension Shown: Hashable, InternalProtocol {}
            protocol InternalProtocol {}
            extension Internal: Equatable {}
            extension String {
                public var shouted: String { uppercased() + #"\(")"# }
            }
            """#
        var scanner = PublicAPIScanner()
        scanner.scan(source, name: "Example.swift")
        #expect(
            scanner.declarations.map(\.line) == [
                "extension Shown: Hashable",
                "public protocol Shape",
                "public struct Shown: Sendable",
                "Shape: func draw()",
                "Shape: var area: Double { get }",
                "Shown: @discardableResult public func run(_ name: String, then: () -> Void = { print(\"}{\") }) throws -> Int",
                "Shown: public enum Kind: String",
                "Shown: public private(set) var count = 0",
                "Shown: public static let odd = [1, 2, 3].filter { $0 % 2 == 1 }",
                "Shown: public var watched = 0",
                "Shown.Kind: case a, b = \"}\", c",
                "String: public var shouted: String",
            ])
        #expect(scanner.declarations.filter { !$0.isDocumented }.map(\.line).count == 8)
    }

    /// The public declarations of `module`, from `Sources/<module>`.
    static func declarations(of module: String) throws -> [PublicAPIScanner.Declaration] {
        let root = PackageFiles.path("Sources/\(module)")
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var scanner = PublicAPIScanner()
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            scanner.scan(try String(contentsOfFile: root + "/" + path, encoding: .utf8), name: "Sources/\(module)/\(path)")
        }
        return scanner.declarations
    }

    /// The text of `API.md` for the sources as they are.
    static func listing() throws -> String {
        var text = """
            # Public API

            Every declaration a user of the `HealthLog`, `HealthLogImport` and `HealthKit` libraries can see, one a
            line (`Type: declaration`), read from the sources by `Tests/HealthLogTests/Architecture/PublicAPIScanner.swift`.
            A test fails when the sources and this file differ: after a deliberate change to the public
            API, regenerate it with `\(regenerate)` and review the difference.

            """
        for module in modules {
            text += "\n## \(module)\n\n```swift\n"
            text += try declarations(of: module).map { $0.line + "\n" }.joined()
            text += "```\n"
        }
        return text
    }
}
