import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The document's SAX2 reader must give what libxml2's `xmlTextReader` (``XMLStreamReader``)
/// gave: the same tags, attribute values, lines (past 65,535 too) and errors, so imports
/// and their reports do not change.
@Suite("Import: the document's SAX2 reader")
struct ExportDocumentReaderTests {
    /// One start tag or end tag as a comparable line of text.
    static func describe(name: String, attributes: [(name: String, value: String)], line: Int) -> String {
        "<\(name) line=\(line) " + attributes.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: " ") + ">"
    }

    /// The tags of `path` through ``XMLStreamReader``, and the error that stopped it, if any.
    static func streamTags(_ path: String) throws -> (tags: [String], error: String?) {
        let file = try ExportFile(path)
        defer { file.close() }
        let reader = try XMLStreamReader(file)
        var tags: [String] = []
        do {
            while let node = try reader.next() {
                switch node {
                case .start(let name, let attributes, let isEmpty):
                    tags.append(describe(name: name, attributes: attributes, line: reader.line))
                    if isEmpty { tags.append("</>") }
                case .end: tags.append("</>")
                case .text: continue
                }
            }
        } catch let error as HealthLogError {
            return (tags, "\(error.message) ends before: \(reader.endsBefore("</HealthData>")) last line: \(reader.lastLine) detail: \(reader.parseError?.message ?? "-")")
        }
        return (tags, nil)
    }

    /// The tags of `path` through ``ExportDocumentReader``, and the error that stopped it, if any.
    static func saxTags(_ path: String) throws -> (tags: [String], error: String?) {
        let file = try ExportFile(path)
        defer { file.close() }
        let reader = try ExportDocumentReader(file)
        var tags: [String] = []
        do {
            while let index = try reader.next() {
                let tag = reader.tag(index)
                let attributes = reader.attributes(index).map { ($0.name, $0.value) }
                tags.append(tag.isEnd ? "</>" : describe(name: reader.names[tag.name], attributes: attributes, line: tag.line))
            }
        } catch let error as HealthLogError {
            return (tags, "\(error.message) ends before: \(reader.endsBefore("</HealthData>")) last line: \(reader.lastLine) detail: \(reader.parseError?.message ?? "-")")
        }
        return (tags, nil)
    }

    /// A document past line 65,535 with what could make the readers differ: start tags over
    /// two lines, children, empty elements, tags with no text between them, comments, a
    /// processing instruction, entity and character references, tabs and newlines in
    /// values, namespaces, and an attribute its DTD gives a default.
    static let farDocument: String = {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ENTITY brand "Acme &amp; Co">
            <!ATTLIST Record defaulted CDATA "from the DTD">
            ]>
            <HealthData locale="en_US">

            """
        text += String(repeating: "\n", count: 65_530)
        for k in 0..<300 {
            text += "  <Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"\(k)\" sourceName=\"A&amp;B &brand; &#x41;\"\n"
            text += "   device=\"tab\tand\nnewline\" startDate=\"2024-01-01 00:00:00 +0000\">\n"
            text += "   <MetadataEntry key=\"k\(k)\" value=\"v\"/><MetadataEntry key=\"next\" value=\"to it\"/>\n"
            if k % 7 == 0 { text += "   <!-- a comment -->\n" }
            if k % 11 == 0 { text += "   <?pi data?>\n" }
            text += "  </Record>\n"
            text += "  <x:Route xmlns:x=\"urn:x\" x:kind=\"gpx\" plain=\"p\"/><Empty/>\n"
        }
        text += "</HealthData>\n"
        return text
    }()

    @Test("Tags, attribute values and lines equal xmlTextReader's, on every fixture and a document past line 65,535")
    func sameAsTheReader() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let far = dir.file("far.xml")
        try Self.farDocument.write(toFile: far, atomically: false, encoding: .utf8)
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: PackageFiles.appleHealthExports).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(fixtures.count >= 5)
        for path in [far] + fixtures.map(PackageFiles.appleHealthExport) {
            let expected = try Self.streamTags(path)
            let got = try Self.saxTags(path)
            #expect(got.error == expected.error, "\(path)")
            // Before an error the reader returns fewer tags (it fails as soon as a piece does).
            guard expected.error == nil else { continue }
            #expect(got.tags.count == expected.tags.count, "\(path)")
            let first = zip(got.tags, expected.tags).first { $0.0 != $0.1 }
            #expect(first == nil, "\(path): first difference \(String(describing: first))")
        }
        let tags = try Self.saxTags(far).tags
        #expect(tags.contains { $0.contains("line=65535") }, "some start tags had no line kept")
        #expect(tags.contains { $0.contains("sourceName=\"A&B Acme & Co A\"") })
        #expect(tags.contains { $0.contains("xmlns:x=\"urn:x\" x:kind=\"gpx\"") })
        #expect(!tags.contains { $0.contains("defaulted") })
    }

    @Test("Malformed and cut-short documents stop both readers with the same error, at the same point")
    func sameErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let padding = String(repeating: "<Record a=\"1\"/>\n", count: 500)
        let documents = [
            "",
            "<HealthData>",
            "<Other/><x",
            "<HealthData locale=\"x\"><Record></HealthData>",
            "<HealthData>\(padding)<Record a=\"1\" a=\"2\"/></HealthData>",
            "<HealthData>\(padding)<Record a=\"&undefined;\"/></HealthData>",
            "<HealthData>\(padding)</HealthData><trailing/>",
            "<HealthData>\(padding)<Record a=\"1\"/",
            "<HealthData>\(padding)<Rec",
            "<HealthData>\(padding)<Record b=\"\u{1}\"/>\(padding)",
        ]
        for (k, text) in documents.enumerated() {
            let path = dir.file("doc\(k).xml")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let expected = try Self.streamTags(path)
            let got = try Self.saxTags(path)
            #expect(got.error == expected.error, "document \(k)")
            #expect(expected.error != nil, "document \(k) is not malformed")
        }
    }

    /// The tags of `element` and its descendants, as ``describe(name:attributes:line:)`` writes them.
    static func flattened(_ element: ExportElement) -> [String] {
        [describe(name: element.name, attributes: element.attributes.map { ($0.name, $0.value) }, line: element.line)]
            + element.children.flatMap(flattened) + ["</>"]
    }

    @Test("The elements the scanner hands on, made on the mapping side from batches of byte ranges, hold the reader's tags and values")
    func elementsHoldTheTags() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let far = dir.file("far.xml")
        try Self.farDocument.write(toFile: far, atomically: false, encoding: .utf8)
        for path in [far, PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")] {
            let file = try ExportFile(path)
            defer { file.close() }
            var scanner = try ExportScanner(file)
            var maker = ElementMaker()
            var elements: [ExportElement] = []
            var batches = 0
            // Batches of 7: names first met in a later batch, values repeated across batches.
            try scanner.scan(elementsPerBatch: 7) {
                maker.forEachElement(of: $0) { elements.append($0) }
                batches += 1
            }
            let tags = try Self.saxTags(path).tags
            #expect(batches > 1)
            // The reader's tags but the root's start and end.
            #expect(elements.flatMap(Self.flattened) == Array(tags.dropFirst().dropLast()), "\(path)")
        }
    }
}
