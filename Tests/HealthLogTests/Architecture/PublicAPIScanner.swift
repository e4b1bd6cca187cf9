/// Reads the public API of a module from its Swift sources: every declaration a user of the
/// library can see (`public` or `open`, a case of a public enum, a requirement of a public
/// protocol, a conformance added to a public type), each as its signature with whitespace
/// normalised, so line breaks and comments inside a signature do not change the listing.
///
/// It is a scanner, not a compiler: it tokenises (strings, interpolations, raw strings and
/// comments included) and tracks braces, which is enough for declarations written the usual
/// way. Local declarations inside bodies are never public, so bodies are skipped whole.
struct PublicAPIScanner {
    /// One declaration a user of the module can see.
    struct Declaration: Hashable, Comparable {
        /// The enclosing type, dotted (`HealthLogError.Code`); empty at the top level.
        var context: String
        /// The declaration with its attributes and modifiers, up to its body.
        var signature: String
        /// Whether a doc comment (`///` or `/** */`) precedes it.
        var isDocumented: Bool
        /// Whether it is a conformance added by an extension (`extension T: P`).
        var isConformance: Bool
        /// Where it is, as `file:line`, for messages.
        var location: String

        /// The line of the listing.
        var line: String { context.isEmpty ? signature : context + ": " + signature }

        static func < (a: Declaration, b: Declaration) -> Bool { (a.context, a.signature) < (b.context, b.signature) }
        static func == (a: Declaration, b: Declaration) -> Bool { a.line == b.line }
        func hash(into hasher: inout Hasher) { hasher.combine(line) }
    }

    /// One declaration found, before its visibility is settled (that needs every file).
    private struct Candidate {
        var path: [String]
        var access: String
        var declaration: Declaration
        /// For a conformance, the protocols named (filtered to the public ones later).
        var protocols: [String] = []
    }

    private var candidates: [Candidate] = []
    /// The access level of each type the module declares, by dotted path.
    private var typeAccess: [String: String] = [:]

    /// Scans one source file; `name` locates its declarations in messages.
    mutating func scan(_ text: String, name: String) {
        var parser = Parser(tokens: Lexer.tokens(of: text), file: name)
        parser.run()
        candidates += parser.candidates
        typeAccess.merge(parser.typeAccess) { first, _ in first }
    }

    /// The declarations visible to a user: public or open, in types that are themselves
    /// visible (or declared outside the module), sorted and without duplicates (a
    /// declaration in both branches of an `#if` is listed once).
    var declarations: [Declaration] {
        var found = Set<Declaration>()
        for candidate in candidates where ["public", "open"].contains(candidate.access) && isVisible(candidate.path) {
            var declaration = candidate.declaration
            if declaration.isConformance {
                let visible = candidate.protocols.filter { typeAccess[$0].map { ["public", "open"].contains($0) } ?? true }
                guard !visible.isEmpty else { continue }
                declaration.signature = "extension \(candidate.path.joined(separator: ".")): \(visible.joined(separator: ", "))"
            }
            found.insert(declaration)
        }
        return found.sorted()
    }

    /// Whether every type along `path` is public, or not the module's own.
    private func isVisible(_ path: [String]) -> Bool {
        path.indices.allSatisfy { end in
            typeAccess[path[...end].joined(separator: ".")].map { ["public", "open"].contains($0) } ?? true
        }
    }

    /// A token of Swift source.
    struct Token {
        enum Kind: Equatable { case word, string, punctuation, newline, docComment }
        var kind: Kind
        var text: String
        /// Whether whitespace, a comment or a line break precedes it.
        var spaced: Bool
        /// Its line, from 1.
        var line: Int
    }

    /// Splits source text into tokens: words (identifiers, keywords, numbers, `@attribute`,
    /// `#directive`), whole string literals, punctuation (`->` as one), line breaks, and
    /// doc comments; other comments and whitespace only mark the next token as spaced.
    enum Lexer {
        static func tokens(of text: String) -> [Token] {
            let bytes = Array(text.utf8)
            var tokens: [Token] = []
            var i = 0
            var line = 1
            var spaced = false
            func add(_ kind: Token.Kind, _ start: Int, _ end: Int) {
                tokens.append(Token(kind: kind, text: String(decoding: bytes[start..<end], as: UTF8.self), spaced: spaced, line: line))
                spaced = false
            }
            while i < bytes.count {
                let c = bytes[i]
                let next = i + 1 < bytes.count ? bytes[i + 1] : 0
                if c == 10 {
                    add(.newline, i, i + 1)
                    line += 1
                    i += 1
                    spaced = true
                } else if c == 32 || c == 9 || c == 13 {
                    i += 1
                    spaced = true
                } else if c == 47, next == 47 {  // `//`
                    let start = i
                    while i < bytes.count, bytes[i] != 10 { i += 1 }
                    let isDoc = i - start >= 3 && bytes[start + 2] == 47 && (i - start == 3 || bytes[start + 3] != 47)
                    if isDoc { add(.docComment, start, start + 3) }
                    spaced = true
                } else if c == 47, next == 42 {  // `/*`, nested
                    let isDoc = i + 2 < bytes.count && bytes[i + 2] == 42 && !(i + 3 < bytes.count && bytes[i + 3] == 47)
                    var depth = 0
                    repeat {
                        if bytes[i] == 47, i + 1 < bytes.count, bytes[i + 1] == 42 {
                            depth += 1
                            i += 2
                        } else if bytes[i] == 42, i + 1 < bytes.count, bytes[i + 1] == 47 {
                            depth -= 1
                            i += 2
                        } else {
                            if bytes[i] == 10 { line += 1 }
                            i += 1
                        }
                    } while depth > 0 && i < bytes.count
                    if isDoc { add(.docComment, i - 2, i) }
                    spaced = true
                } else if c == 34 || (c == 35 && stringStart(bytes, i) != nil) {  // `"` or `#"`
                    let start = i
                    let startLine = line
                    i = endOfString(bytes, i, line: &line)
                    tokens.append(Token(kind: .string, text: String(decoding: bytes[start..<i], as: UTF8.self), spaced: spaced, line: startLine))
                    spaced = false
                } else if isWordByte(c) || ((c == 64 || c == 35) && isWordByte(next)) {
                    let start = i
                    i += 1
                    while i < bytes.count, isWordByte(bytes[i]) { i += 1 }
                    add(.word, start, i)
                } else if c == 45, next == 62 {  // `->`
                    add(.punctuation, i, i + 2)
                    i += 2
                } else {
                    add(.punctuation, i, i + 1)
                    i += 1
                }
            }
            return tokens
        }

        private static func isWordByte(_ c: UInt8) -> Bool {
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c >= 0x80
        }

        /// The number of `#` before the opening quote of a raw string starting at `i`.
        private static func stringStart(_ bytes: [UInt8], _ i: Int) -> Int? {
            var hashes = 0
            while i + hashes < bytes.count, bytes[i + hashes] == 35 { hashes += 1 }
            return i + hashes < bytes.count && bytes[i + hashes] == 34 ? hashes : nil
        }

        /// The index just past the string literal starting at `i` (raw, multi-line and
        /// interpolated strings included); counts the line breaks inside it into `line`.
        static func endOfString(_ bytes: [UInt8], _ start: Int, line: inout Int) -> Int {
            let hashes = stringStart(bytes, start) ?? 0
            var i = start + hashes
            let isMultiline = i + 2 < bytes.count && bytes[i + 1] == 34 && bytes[i + 2] == 34
            let quotes = isMultiline ? 3 : 1
            i += quotes
            func closes(at j: Int) -> Bool {
                guard j + quotes + hashes <= bytes.count else { return false }
                return bytes[j..<(j + quotes)].allSatisfy { $0 == 34 } && bytes[(j + quotes)..<(j + quotes + hashes)].allSatisfy { $0 == 35 }
            }
            while i < bytes.count {
                if bytes[i] == 92, i + hashes + 1 < bytes.count, bytes[(i + 1)..<(i + 1 + hashes)].allSatisfy({ $0 == 35 }) {
                    i += 1 + hashes
                    if bytes[i] == 40 {  // `\(`: an interpolation, with strings of its own
                        var depth = 0
                        repeat {
                            if bytes[i] == 40 { depth += 1 }
                            if bytes[i] == 41 { depth -= 1 }
                            if bytes[i] == 10 { line += 1 }
                            if bytes[i] == 34 || (bytes[i] == 35 && stringStart(bytes, i) != nil) {
                                i = endOfString(bytes, i, line: &line)
                            } else {
                                i += 1
                            }
                        } while depth > 0 && i < bytes.count
                    } else {
                        i += 1
                    }
                } else if closes(at: i) {
                    return i + quotes + hashes
                } else {
                    if bytes[i] == 10 {
                        line += 1
                        if !isMultiline { return i }
                    }
                    i += 1
                }
            }
            return i
        }
    }

    /// Walks the tokens of one file, collecting declarations per type scope.
    private struct Parser {
        let tokens: [Token]
        let file: String
        var candidates: [Candidate] = []
        var typeAccess: [String: String] = [:]
        private var i = 0

        init(tokens: [Token], file: String) {
            self.tokens = tokens
            self.file = file
        }

        /// What a declaration inside a type scope gets without an access modifier.
        private struct Scope {
            var path: [String]
            /// The access of a protocol's requirements, an enum's cases, or a `public
            /// extension`'s members; nil where the default is `internal`.
            var memberAccess: String?
            var caseAccess: String?
        }

        static let accessWords: Set<String> = ["public", "open", "package", "internal", "fileprivate", "private"]
        static let modifierWords: Set<String> = accessWords.union([
            "static", "class", "final", "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned",
            "nonisolated", "indirect", "dynamic", "optional", "prefix", "postfix", "infix", "consuming", "borrowing", "distributed",
        ])
        static let typeWords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "extension"]
        static let declarationWords: Set<String> = typeWords.union([
            "func", "var", "let", "init", "deinit", "subscript", "typealias", "associatedtype", "case", "operator", "precedencegroup", "macro",
        ])
        static let accessorWords: Set<String> = ["get", "set", "async", "throws", "mutating", "nonmutating"]

        mutating func run() {
            parseScope(Scope(path: []))
        }

        /// Parses declarations until the scope's closing brace (consumed) or the end.
        private mutating func parseScope(_ scope: Scope) {
            var isDocumented = false
            while i < tokens.count {
                let token = tokens[i]
                switch (token.kind, token.text) {
                case (.newline, _), (.punctuation, ";"):
                    i += 1
                case (.docComment, _):
                    isDocumented = true
                    i += 1
                case (.punctuation, "}"):
                    i += 1
                    return
                default:
                    let statement = collectStatement()
                    if statement.opensBody {
                        i += 1  // the `{`
                    }
                    handle(statement.tokens, opensBody: statement.opensBody, in: scope, isDocumented: isDocumented)
                    isDocumented = false
                }
            }
        }

        /// The tokens of the statement starting at `i`, up to its end: a line break that
        /// does not continue it, a `;`, a `{` opening its body (left at `i`), or the
        /// scope's `}` (left at `i`).
        private mutating func collectStatement() -> (tokens: [Token], opensBody: Bool) {
            var collected: [Token] = []
            var depth = 0
            while i < tokens.count {
                let token = tokens[i]
                if token.kind == .docComment {
                    i += 1
                    continue
                }
                if token.kind == .punctuation {
                    switch token.text {
                    case "(", "[": depth += 1
                    case ")", "]": depth -= 1
                    case "{":
                        if depth == 0, !isTrailingClosure(after: collected) { return (collected, true) }
                        depth += 1
                    case "}":
                        if depth == 0 { return (collected, false) }
                        depth -= 1
                    case ";" where depth == 0:
                        return (collected, false)
                    default: break
                    }
                }
                if token.kind == .newline {
                    if depth > 0 || continues(collected) {
                        i += 1
                        continue
                    }
                    return (collected, false)
                }
                collected.append(token)
                i += 1
            }
            return (collected, false)
        }

        /// Whether the `{` at `i` opens a trailing closure in the initial value of a property
        /// (`let x = list.filter { … }`) rather than the statement's body: it follows an `=`
        /// outside brackets and does not open `willSet` or `didSet`.
        private func isTrailingClosure(after collected: [Token]) -> Bool {
            var depth = 0
            var isProperty = false
            var hasValue = false
            for token in collected {
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                if [")", "]", "}"].contains(token.text) { depth -= 1 }
                guard depth == 0 else { continue }
                if ["let", "var"].contains(token.text) { isProperty = true }
                if ["func", "init", "subscript"].contains(token.text) { return false }
                if isProperty, token.text == "=" { hasValue = true }
            }
            guard hasValue else { return false }
            let next = tokens[(i + 1)...].first { $0.kind != .newline && $0.kind != .docComment }
            return !["willSet", "didSet"].contains(next?.text ?? "")
        }

        /// Whether the statement so far goes on past the line break at `i`.
        private func continues(_ collected: [Token]) -> Bool {
            guard let last = collected.last else { return true }
            if collected[0].text.hasPrefix("#") { return false }
            if Self.isAttributes(collected) { return true }
            if last.kind == .punctuation, [",", "->", ":", "=", "&", ".", "(", "<"].contains(last.text) { return true }
            var j = i + 1
            while j < tokens.count, tokens[j].kind == .newline { j += 1 }
            guard j < tokens.count else { return false }
            let next = tokens[j]
            switch next.kind {
            case .punctuation: return ["->", ".", ",", "&", "=", ":", "{", "?"].contains(next.text)
            case .word: return ["throws", "rethrows", "async", "where"].contains(next.text)
            default: return false
            }
        }

        /// Whether `collected` holds attributes only (`@discardableResult`, `@available(…)`),
        /// which go on to the declaration on the next line.
        private static func isAttributes(_ collected: [Token]) -> Bool {
            var depth = 0
            for token in collected {
                if token.text == "(" { depth += 1 }
                if token.text == ")" { depth -= 1 }
                if depth == 0, token.text != ")", !token.text.hasPrefix("@") { return false }
            }
            return true
        }

        /// Records the statement if it is a declaration, and parses or skips its body.
        private mutating func handle(_ statement: [Token], opensBody: Bool, in scope: Scope, isDocumented: Bool) {
            var k = 0
            while k < statement.count, statement[k].text.hasPrefix("@") {
                k += 1
                if k < statement.count, statement[k].text == "(", !statement[k].spaced { k = skipBalanced(statement, from: k) }
            }
            var access: String?
            while k < statement.count, statement[k].kind == .word, Self.modifierWords.contains(statement[k].text) {
                if statement[k].text == "class", k + 1 < statement.count, !Self.declarationWords.contains(statement[k + 1].text) { break }
                if Self.accessWords.contains(statement[k].text) {
                    if k + 1 < statement.count, statement[k + 1].text == "(" {
                        k = skipBalanced(statement, from: k + 1)
                        continue
                    }
                    access = statement[k].text
                }
                k += 1
            }
            guard k < statement.count, Self.declarationWords.contains(statement[k].text) else {
                if opensBody { skipBody() }
                return
            }
            let keyword = statement[k].text
            let name = dottedName(statement, from: k + 1)
            let location = "\(file):\(statement[0].line)"
            if Self.typeWords.contains(keyword) {
                let path = keyword == "extension" ? name.split(separator: ".").map(String.init) : scope.path + [name]
                let ownAccess = access ?? (keyword == "extension" ? nil : scope.memberAccess ?? "internal")
                if keyword == "extension" {
                    let protocols = inheritance(statement)
                    if !protocols.isEmpty {
                        let declaration = Declaration(context: "", signature: "", isDocumented: true, isConformance: true, location: location)
                        candidates.append(Candidate(path: path, access: "public", declaration: declaration, protocols: protocols))
                    }
                } else {
                    typeAccess[path.joined(separator: ".")] = ownAccess
                    record(statement, path: scope.path, access: ownAccess ?? "internal", isDocumented: isDocumented, location: location)
                }
                guard opensBody else { return }
                var inner = Scope(path: path)
                if keyword == "protocol" { inner.memberAccess = ownAccess }
                if keyword == "extension" { inner.memberAccess = access }
                if keyword == "enum" { inner.caseAccess = ownAccess }
                parseScope(inner)
                return
            }
            let effective = access ?? (keyword == "case" ? scope.caseAccess : nil) ?? scope.memberAccess ?? "internal"
            var signature = statement
            if opensBody, let accessors = skipBody() {
                signature += accessors
            }
            record(signature, path: scope.path, access: effective, isDocumented: isDocumented, location: location)
        }

        private mutating func record(_ statement: [Token], path: [String], access: String, isDocumented: Bool, location: String) {
            let declaration = Declaration(
                context: path.joined(separator: "."), signature: Self.normalised(statement), isDocumented: isDocumented,
                isConformance: false, location: location)
            candidates.append(Candidate(path: path, access: access, declaration: declaration))
        }

        /// Skips a body whose `{` was consumed, through its `}`. Returns the body's tokens
        /// when it is only accessor words (a protocol requirement's `{ get set }`).
        @discardableResult
        private mutating func skipBody() -> [Token]? {
            var depth = 1
            var inside: [Token] = []
            let open = tokens[i - 1]
            while i < tokens.count, depth > 0 {
                let token = tokens[i]
                if token.kind == .punctuation, token.text == "{" { depth += 1 }
                if token.kind == .punctuation, token.text == "}" { depth -= 1 }
                if depth > 0, token.kind != .newline { inside.append(token) }
                i += 1
            }
            guard !inside.isEmpty, inside.allSatisfy({ $0.kind == .word && Self.accessorWords.contains($0.text) }) else { return nil }
            var close = tokens[i - 1]
            close.spaced = true
            var opening = open
            opening.spaced = true
            return [opening] + inside.map { var word = $0; word.spaced = true; return word } + [close]
        }

        /// The index past the balanced bracket group starting at `start`.
        private func skipBalanced(_ statement: [Token], from start: Int) -> Int {
            var depth = 0
            var k = start
            repeat {
                if ["(", "["].contains(statement[k].text) { depth += 1 }
                if [")", "]"].contains(statement[k].text) { depth -= 1 }
                k += 1
            } while depth > 0 && k < statement.count
            return k
        }

        /// The name at `start`: words joined by dots (`HealthLogError.Code`).
        private func dottedName(_ statement: [Token], from start: Int) -> String {
            var name = ""
            var k = start
            while k < statement.count, statement[k].kind == .word || statement[k].text == "." {
                if statement[k].kind == .word, name.last.map({ $0 != "." }) ?? false { break }
                name += statement[k].text
                k += 1
            }
            return name
        }

        /// The types named after an extension's `:`, up to its `where`.
        private func inheritance(_ statement: [Token]) -> [String] {
            guard let colon = statement.firstIndex(where: { $0.text == ":" }) else { return [] }
            var names: [String] = []
            var current = ""
            for token in statement[(colon + 1)...] {
                if token.text == "where" { break }
                if token.text == "," {
                    names.append(current)
                    current = ""
                } else {
                    current += token.text
                }
            }
            return (names + [current]).filter { !$0.isEmpty }
        }

        /// The statement as one line: one space where the source had any whitespace,
        /// none inside brackets' edges or before a comma, no trailing comma in a list.
        static func normalised(_ statement: [Token]) -> String {
            var text = ""
            for (index, token) in statement.enumerated() {
                let previous = index > 0 ? statement[index - 1].text : ""
                let noSpace = ["(", "["].contains(previous) || [")", "]", ","].contains(token.text)
                if index > 0, token.spaced, !noSpace { text += " " }
                if [")", "]"].contains(token.text), text.hasSuffix(",") { text.removeLast() }
                text += token.text
            }
            return text
        }
    }
}
