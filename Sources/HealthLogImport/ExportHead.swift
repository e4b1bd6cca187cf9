import HealthLog

/// What the first bytes of an input file say it is, checked before libxml2 sees it, so a
/// file that is not an export gets a message naming its problem rather than a parser
/// error about a document it never was.
enum ExportHead {
    /// The elements an export holds directly under `HealthData`: a file that starts with
    /// one of them is a piece cut from an export, not a whole one.
    static let exportChildren: Set<String> = [
        "Record", "Workout", "Correlation", "ActivitySummary", "ExportDate", "Me", "ClinicalRecord", "Audiogram", "VisionPrescription",
    ]

    /// Throws when `head`, the first bytes of the plain (not zip) file `path`, cannot start
    /// an Apple Health export: an empty file, one that is not XML (text or binary; text that
    /// starts as JSON is pointed to `healthlog append`), or XML whose first element is not
    /// `HealthData`. `isWhole` says `head` is the whole file.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming `path` and the problem.
    static func check(_ head: [UInt8], isWhole: Bool, path: String) throws {
        guard !head.isEmpty else {
            throw HealthLogError(.badInput, "\(path): the file is empty: not an Apple Health export")
        }
        var at = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while at < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[at]) { at += 1 }
        guard at < head.count else {
            throw HealthLogError(.badInput, "\(path): the file holds only blanks: not an Apple Health export")
        }
        guard head[at] == 0x3C else {
            let what = isText(head) ? "plain text" : "binary data"
            let hint = what == "plain text" && head[at] == 0x7B ? "; it reads as JSON: for NDJSON events use `healthlog append \(path)`" : ""
            throw HealthLogError(.badInput, "\(path): the file is \(what), neither XML nor a zip: not an Apple Health export\(hint)")
        }
        guard let root = firstElement(head, from: at) else {
            if isWhole { throw HealthLogError(.badInput, "\(path): the XML holds no element: not an Apple Health export") }
            return
        }
        if root.name != "HealthData" { throw wrongRoot(root.name, line: root.line, path: path) }
    }

    /// The error for a document whose root element is `name`, at `line`.
    static func wrongRoot(_ name: String, line: Int, path: String) -> HealthLogError {
        if exportChildren.contains(name) {
            return HealthLogError(.badInput, "\(path): line \(line): \(name) elements without a HealthData document: not a whole export")
        }
        return HealthLogError(.badInput, "\(path): line \(line): the root element is \(name), not HealthData: not an Apple Health export")
    }

    /// Whether `bytes` read as text: no NUL and no other control character than tab, line
    /// feed, carriage return and form feed, and valid UTF-8 (a sequence cut at the end is
    /// allowed).
    static func isText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) || $0 == 0x7F }) else { return false }
        for cut in 0...min(3, bytes.count) where String(validating: bytes.dropLast(cut), as: UTF8.self) != nil { return true }
        return false
    }

    /// The name and line of the first element of the XML in `head` starting at `at`,
    /// passing over the declaration, processing instructions, comments and a doctype (whose
    /// name is taken as the root's when the element itself is past the head); `nil` when
    /// the head ends first.
    static func firstElement(_ head: [UInt8], from at: Int) -> (name: String, line: Int)? {
        var at = at
        func skip(past end: [UInt8]) -> Bool {
            var k = at
            while k + end.count <= head.count {
                if head[k..<k + end.count].elementsEqual(end) {
                    at = k + end.count
                    return true
                }
                k += 1
            }
            return false
        }
        func name(from start: Int) -> String? {
            var end = start
            while end < head.count, !isNameEnd(head[end]) { end += 1 }
            guard end < head.count, end > start else { return nil }
            return String(decoding: head[start..<end], as: UTF8.self)
        }
        while at < head.count {
            guard head[at] == 0x3C else {
                at += 1
                continue
            }
            let rest = head[at...]
            if rest.starts(with: Array("<?".utf8)) {
                guard skip(past: Array("?>".utf8)) else { return nil }
            } else if rest.starts(with: Array("<!--".utf8)) {
                guard skip(past: Array("-->".utf8)) else { return nil }
            } else if rest.starts(with: Array("<!DOCTYPE".utf8)) {
                var start = at + 9
                while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
                guard let doctype = name(from: start) else { return nil }
                return (doctype, line(of: at, in: head))
            } else if rest.starts(with: Array("<!".utf8)) {
                guard skip(past: Array(">".utf8)) else { return nil }
            } else {
                guard let element = name(from: at + 1) else { return nil }
                return (element, line(of: at, in: head))
            }
        }
        return nil
    }

    /// Whether `byte` ends an element name.
    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2F || byte == 0x3E || byte == 0x5B
    }

    /// The 1-based line of offset `offset` in `bytes`.
    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
