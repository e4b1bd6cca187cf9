import Foundation
import HealthLogTestSupport
import Testing

/// The core library's floors, enforced: each folder of
/// `Sources/HealthLog` is a floor, and a file may use only what its own floor and the
/// floors below it declare. So the arrows run one way, and there is no cycle between
/// folders. A new folder must be given its place here before anything builds on it.
@Suite("Layers")
struct LayerTests {
    /// The floors, bottom first; the files at the top of `Sources/HealthLog` are the
    /// `HealthStore` facade.
    static let floors = [
        "System", "Model", "Units", "Catalog", "Format", "Samples", "Events", "Storage", "Index", "Append", "Query", "Analysis", "Maintenance",
        facade,
    ]
    /// The name of the top floor: the files directly in `Sources/HealthLog`.
    static let facade = "(facade)"

    /// The core library's sources.
    static let root = PackageFiles.path("Sources/HealthLog")

    @Test("Every folder of the core is a known floor")
    func everyFolderIsAFloor() throws {
        let files = try Self.sourceFiles()
        let unknown = Set(files.map(\.floor)).subtracting(Self.floors)
        #expect(unknown.isEmpty, "folders without a place in LayerTests.floors: \(unknown.sorted())")
        #expect(files.count > 100, "the core's sources were not found at \(Self.root)")
    }

    @Test("No file uses a type or function declared on a floor above its own")
    func noUpwardArrow() throws {
        let files = try Self.sourceFiles()
        var declaredOn: [String: (floor: String, file: String)] = [:]
        for file in files {
            for name in Self.topLevelDeclarations(file.text) { declaredOn[name] = (file.floor, file.path) }
        }
        let rank = Dictionary(uniqueKeysWithValues: Self.floors.enumerated().map { ($1, $0) })
        var arrows: [String] = []
        for file in files {
            guard let own = rank[file.floor] else { continue }
            for name in Self.identifiers(Self.code(of: file.text)) {
                guard let target = declaredOn[name], let other = rank[target.floor], other > own else { continue }
                arrows.append("\(file.path) (\(file.floor)) uses \(name) from \(target.file) (\(target.floor))")
            }
        }
        #expect(arrows.isEmpty, "upward arrows:\n\(arrows.sorted().joined(separator: "\n"))")
    }

    @Test("The check sees an upward arrow when there is one")
    func checkerFindsAnArrow() {
        let lower = "struct Low {}\n"
        let upper = "enum High { static func make() -> Low { Low() } }\n"
        #expect(Self.topLevelDeclarations(upper) == ["High"])
        #expect(Self.identifiers(Self.code(of: lower + "// High\nlet note = \"High\"\n")).contains("High") == false)
        #expect(Self.identifiers(Self.code(of: "let x = High.make()\n")).contains("High"))
    }

    /// One source file of the core.
    struct SourceFile {
        /// Its path below `Sources/HealthLog`.
        var path: String
        /// Its floor: the first folder of its path, or ``facade``.
        var floor: String
        /// Its text.
        var text: String
    }

    /// Every Swift file of the core.
    static func sourceFiles() throws -> [SourceFile] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [SourceFile] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let parts = path.split(separator: "/")
            let floor = parts.count == 1 ? facade : String(parts[0])
            files.append(SourceFile(path: path, floor: floor, text: try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
        }
        return files
    }

    /// The names a file declares at its top level: types, type aliases and free functions.
    static func topLevelDeclarations(_ text: String) -> Set<String> {
        let modifiers: Set<String> = ["public", "package", "internal", "private", "fileprivate", "final", "indirect", "nonisolated"]
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias", "func"]
        var names: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.first?.isLetter == true || line.first == "@" {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "{" }).map(String.init)
            while let first = words.first, modifiers.contains(first) || first.hasPrefix("@") { words.removeFirst() }
            if words.count >= 2, kinds.contains(words[0]) { names.insert(words[1]) }
        }
        return names
    }

    /// `text` without comments and string literals, which may name anything.
    static func code(of text: String) -> String {
        var out = ""
        var chars = Array(text)[...]
        while let c = chars.first {
            if chars.starts(with: "//") {
                chars = chars.drop(while: { $0 != "\n" })
            } else if chars.starts(with: "/*") {
                let rest = String(chars.dropFirst(2))
                chars = rest.range(of: "*/").map { Array(rest[$0.upperBound...])[...] } ?? []
            } else if chars.starts(with: "#\"") {
                let rest = String(chars.dropFirst(2))
                chars = rest.range(of: "\"#").map { Array(rest[$0.upperBound...])[...] } ?? []
                out += "\"\""
            } else if c == "\"" {
                let quotes = chars.starts(with: "\"\"\"") ? 3 : 1
                chars = chars.dropFirst(quotes)
                while let d = chars.first {
                    if d == "\\" { chars = chars.dropFirst(2); continue }
                    if quotes == 1 && d == "\"" || quotes == 3 && chars.starts(with: "\"\"\"") { break }
                    chars = chars.dropFirst()
                }
                chars = chars.dropFirst(quotes)
                out += "\"\""
            } else {
                out.append(c)
                chars = chars.dropFirst()
            }
        }
        return out
    }

    /// The identifiers in `code`.
    static func identifiers(_ code: String) -> Set<String> {
        var found: Set<String> = []
        var current = ""
        for c in code {
            if c.isLetter || c.isNumber || c == "_" {
                current.append(c)
            } else {
                if let first = current.first, !first.isNumber { found.insert(current) }
                current = ""
            }
        }
        if let first = current.first, !first.isNumber { found.insert(current) }
        return found
    }
}
