import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Hostile exports, made here: each is refused or read within ``ImportLimits`` (depth,
/// entity expansion, attributes per element, what a zip entry unpacks to), with the line
/// or file named (each test's time limit only bounds a hang).
@Suite("Apple Health import: bounded on any input")
struct ImportBoundsTests {
    /// Imports `bytes`, written as `name`, into a fresh store: the report, or the error
    /// and whether anything (the store, its staging) was left in the directory.
    static func importing(_ bytes: [UInt8], name: String = "export.xml") throws -> Result<ImportReport, HealthLogError> {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file(name)
        try ByteSurgery.write(bytes, to: path)
        let store = HealthStore(directory: dir.file("store"))
        do {
            return .success(try store.importExport(at: path))
        } catch let error as HealthLogError {
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != name }
            #expect(left.isEmpty, "a refused import left \(left)")
            return .failure(error)
        }
    }

    /// The error of a refused import.
    static func refusal(_ bytes: [UInt8], name: String = "export.xml") throws -> HealthLogError {
        guard case .failure(let error) = try importing(bytes, name: name) else {
            Issue.record("the import was not refused")
            return HealthLogError(.io, "")
        }
        return error
    }

    @Test("Elements nested 30,000 deep are refused at the first past the limit, naming line and depth", .timeLimit(.minutes(10)))
    func deepNesting() throws {
        let body = HostileExport.record + ">\n" + String(repeating: "<a>", count: 30_000) + String(repeating: "</a>", count: 30_000) + "</Record>"
        let error = try Self.refusal(HostileExport.document(body))
        #expect(error.code == .badInput)
        #expect(error.message.hasSuffix("export.xml: line 4: element a is nested 257 deep, deeper than the 256 the import reads"))
    }

    @Test("An entity of 100,000 characters used 20,000 times in an attribute is refused at its line", .timeLimit(.minutes(10)))
    func entityExpansionInValue() throws {
        let dtd = "<!ENTITY e \"" + String(repeating: "x", count: 100_000) + "\">\n"
        let body = HostileExport.record.replacingOccurrences(of: "\"Phone\"", with: "\"" + String(repeating: "&e;", count: 20_000) + "\"") + "/>"
        let error = try Self.refusal(HostileExport.document(body, dtd: dtd))
        #expect(error.code == .badInput)
        #expect(
            error.message.hasSuffix(
                "export.xml: line 6: attribute sourceName: entity references expand to more than 1 MiB, the most the import expands in one value"))
    }

    @Test("Entities nested ten deep, ten references each, are refused once the value passes the bound", .timeLimit(.minutes(10)))
    func entityLaughs() throws {
        var dtd = "<!ENTITY l0 \"lol\">\n"
        for level in 1...9 { dtd += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">\n" }
        let body = HostileExport.record.replacingOccurrences(of: "\"Phone\"", with: "\"&l9;\"") + "/>"
        let error = try Self.refusal(HostileExport.document(body, dtd: dtd))
        #expect(error.message.contains("attribute sourceName: entity references expand to more than 1 MiB") || error.message.contains("malformed XML"))
    }

    @Test("Values each under the bound are refused once entities gave 64 MiB in all", .timeLimit(.minutes(10)))
    func entityExpansionInAll() throws {
        let dtd = "<!ENTITY e \"" + String(repeating: "y", count: 900_000) + "\">\n"
        let records = (0..<80).map { k in
            HostileExport.record.replacingOccurrences(of: "\"Phone\"", with: "\"&e;\"").replacingOccurrences(of: "value=\"12\"", with: "value=\"\(k)\"") + "/>"
        }
        let error = try Self.refusal(HostileExport.document(records.joined(separator: "\n"), dtd: dtd))
        #expect(error.message.contains("entity references in attribute values expand to more than 64 MiB in all"))
    }

    @Test("Entities within the bounds still expand: a character reference, a predefined entity, a nested one")
    func entitiesExpand() throws {
        let dtd = "<!ENTITY who \"Tom &#38;#38; &jerry;\">\n<!ENTITY jerry \"Jerry&#x21;\">\n"
        let body = HostileExport.record.replacingOccurrences(of: "\"Phone\"", with: "\"&who; &lt;3 &#65;\"") + "/>"
        guard case .success = try Self.importing(HostileExport.document(body, dtd: dtd)) else {
            Issue.record("refused")
            return
        }
        let scanned = try Self.scanned(HostileExport.document(body, dtd: dtd))
        #expect(scanned.first?["sourceName"] == "Tom & Jerry! <3 A")
    }

    /// The lines replay gives for `store` from the beginning.
    static func lines(_ store: HealthStore) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(anchor: .beginning)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    /// The top-level elements of `bytes` as the scanner reads them.
    static func scanned(_ bytes: [UInt8]) throws -> [ExportElement] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try ByteSurgery.write(bytes, to: dir.file("export.xml"))
        let file = try ExportFile(dir.file("export.xml"))
        defer { file.close() }
        var scanner = try ExportScanner(file)
        var maker = ElementMaker()
        var out: [ExportElement] = []
        try scanner.scan(elementsPerBatch: 1) { maker.forEachElement(of: $0) { out.append($0) } }
        return out
    }

    @Test("An entity loop used in content is reported where it is used, not in the entity's own text")
    func entityLoopLine() throws {
        let dtd = "<!ENTITY a \"&b;\">\n<!ENTITY b \"&a;\">\n"
        let error = try Self.refusal(HostileExport.document(HostileExport.record + ">\n&a;</Record>", dtd: dtd))
        #expect(error.message.contains("export.xml: line 8, column 4: malformed XML: Detected an entity reference loop"))
        #expect(error.message.contains("entity reference loop"))
    }

    @Test("An element with 30,000 attributes is refused before libxml2's scan for repeated names, at its line", .timeLimit(.minutes(10)))
    func manyAttributes() throws {
        let attributes = (0..<30_000).map { " k\($0)=\"v\"" }.joined()
        let error = try Self.refusal(HostileExport.document("<ExportDate value=\"2024-03-01 09:00:00 +0000\"/>\n" + HostileExport.record + attributes + "/>"))
        #expect(error.message.hasSuffix("export.xml: line 4: element Record has more than 1000 attributes, the most the import reads on one element"))
    }

    @Test("An = in an attribute value or in the text after a tag is not counted as an attribute")
    func equalsSignsNotAttributes() throws {
        let signs = String(repeating: "=", count: 2 * ImportLimits.attributes)
        let body = HostileExport.record + " note='\(signs)>'>\(signs)<MetadataEntry key=\"k\" value=\"\(signs)\"/></Record>"
        guard case .success(let report) = try Self.importing(HostileExport.document(body)) else {
            Issue.record("refused")
            return
        }
        #expect(report.summary.added == 1)
    }

    @Test("A start tag of 30,000 attributes spelled with character references in an entity is refused where the entity is declared", .timeLimit(.minutes(10)))
    func manyAttributesInEntity() throws {
        let attributes = (0..<30_000).map { " k\($0)='v'" }.joined()
        let dtd = "<!ENTITY crowd \"&#60;a\(attributes)/&#62;\">\n"
        let error = try Self.refusal(HostileExport.document(HostileExport.record + ">&crowd;</Record>", dtd: dtd))
        #expect(error.code == .badInput)
        #expect(error.message.hasSuffix("export.xml: line 3: entity 'crowd' holds element a with more than 1000 attributes, the most the import reads on one element"))
    }

    @Test("A DTD declaring more attribute defaults than the bound is refused; up to it, the document imports")
    func attributeDefaults() throws {
        let over = "<!ATTLIST Record" + (0...ImportLimits.attributeDefaults).map { " d\($0) CDATA \"x\"" }.joined() + ">\n"
        let error = try Self.refusal(HostileExport.document(HostileExport.record + "/>", dtd: over))
        #expect(error.message.hasSuffix("export.xml: line 3: the DTD declares more than 32 attribute defaults, the most the import reads"))
        let within = "<!ATTLIST Record" + (0..<ImportLimits.attributeDefaults).map { " d\($0) CDATA \"x\"" }.joined() + " n CDATA #IMPLIED>\n"
        guard case .success(let report) = try Self.importing(HostileExport.document(HostileExport.record + "/>", dtd: within)) else {
            Issue.record("refused")
            return
        }
        #expect(report.summary.added == 1)
    }

    @Test("A document using more distinct names than the bound is refused at the first past it; one within it imports", .timeLimit(.minutes(10)))
    func distinctNames() throws {
        // The root, its locale, the record and its seven attributes are ten names; each line after
        // adds two (an attribute's name, then the element's), so line 4 + 4,995 brings the 10,001st.
        let many = HostileExport.record + "/>\n" + (0..<6_000).map { "<N\($0) a\($0)=\"v\"/>" }.joined(separator: "\n")
        let error = try Self.refusal(HostileExport.document(many))
        #expect(error.code == .badInput)
        #expect(error.message.hasSuffix("export.xml: line 4999: more than 10000 distinct element and attribute names, the most the import reads (an Apple Health export uses under a hundred)"))
        let fewer = HostileExport.record + "/>\n" + (0..<4_000).map { "<N\($0) a\($0)=\"v\"/>" }.joined(separator: "\n")
        guard case .success(let report) = try Self.importing(HostileExport.document(fewer)) else {
            Issue.record("refused")
            return
        }
        #expect(report.summary.added == 1)
        #expect(report.elementCounts["N3999"] == 1)
    }

    @Test("An element in the scope of more namespace declarations than the bound is refused at its line")
    func namespacesInScope() throws {
        let declarations = (0..<40).map { " xmlns:p\($0)=\"urn:p\($0)\"" }.joined()
        let body = "<p0:Wrap\(declarations)>\n<p1:Wrap\(declarations.replacingOccurrences(of: "xmlns:p", with: "xmlns:q"))>\n" + HostileExport.record + "/></p1:Wrap></p0:Wrap>"
        let error = try Self.refusal(HostileExport.document(body))
        #expect(error.message.hasSuffix("export.xml: line 4: element Wrap is in the scope of more than 64 namespace declarations, the most the import reads"))
    }

    @Test("Attributes up to the limit and 100,000 MetadataEntry children are all kept, in linear time", .timeLimit(.minutes(10)))
    func manyEntriesKept() throws {
        let attributes = (0..<990).map { " k\($0)=\"v\($0)\"" }.joined()
        let entries = (0..<100_000).map { "<MetadataEntry key=\"m\($0)\" value=\"\($0)\"/>" }.joined()
        let body = HostileExport.record + attributes + ">" + entries + "<MetadataEntry key=\"m7\" value=\"other\"/></Record>"
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try ByteSurgery.write(HostileExport.document(body), to: dir.file("export.xml"))
        let store = HealthStore(directory: dir.file("store"))
        let report = try store.importExport(at: dir.file("export.xml"))
        #expect(report.summary.added == 1)
        let line = try #require(try Self.lines(store).first)
        #expect(line.contains("\"k989\":\"v989\""))
        #expect(line.contains("\"m99999\":\"99999\""))
        #expect(line.contains("\"m7\":\"7\""))
    }

    /// A zip of the document (a record and a workout whose route is `route_1.gpx`) and
    /// `extra` entries after it.
    static func zip(_ extra: [CraftedZip.Entry]) -> [UInt8] {
        CraftedZip.make([CraftedZip.stored("apple_health_export/export.xml", HostileExport.document(HostileExport.record + "/>\n" + HostileExport.workout))] + extra)
    }

    @Test("A route that unpacks to 256 MiB from 2 MiB is listed as refused and the rest imports", .timeLimit(.minutes(10)))
    func routeBomb() throws {
        let gpx = CraftedZip.repeated(
            "apple_health_export/workout-routes/route_1.gpx", prefix: Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>".utf8),
            pattern: Array(HostileExport.point.utf8), size: 256 << 20, suffix: Array("</trkseg></trk></gpx>\n".utf8))
        #expect(gpx.stored.count < 3 << 20)
        guard case .success(let report) = try Self.importing(Self.zip([gpx]), name: "export.zip") else {
            Issue.record("refused")
            return
        }
        #expect(report.routeFilesRead == 0)
        #expect(report.routeProblems.count == 1)
        #expect(report.routeProblems.first?.reason.contains("unpacks to more than 100 times its compressed size past 32 MiB (a zip bomb?): not read") == true)
        #expect(report.summary.added == 2)
    }

    @Test(
        "A route declaring an entity or attribute default, under too many namespace declarations or using too many names, is listed as refused and the rest imports",
        arguments: [
            (
                "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n<!ATTLIST trkpt d CDATA \"x\">\n]>\n<gpx version=\"1.1\"><trk><trkseg>",
                "route_1.gpx: line 3: a DTD declaration (<!ENTITY, <!ATTLIST, …), which the import does not read in this file"
            ),
            (
                "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"" + (0..<70).map { " xmlns:p\($0)=\"u\"" }.joined() + ">\n<trk><trkseg>",
                "route_1.gpx: line 2: element gpx is in the scope of more than 64 namespace declarations, the most the import reads"
            ),
            (
                "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n" + (0..<6_000).map { "<x\($0) y\($0)=\"1\"/>" }.joined() + "\n",
                "route_1.gpx: line 3: more than 10000 distinct element and attribute names, the most the import reads"
            ),
        ])
    func routeDeclarations(_ head: String, _ reason: String) throws {
        let gpx = head + HostileExport.point + "</trkseg></trk></gpx>\n"
        guard case .success(let report) = try Self.importing(Self.zip([CraftedZip.stored("apple_health_export/workout-routes/route_1.gpx", Array(gpx.utf8))]), name: "export.zip")
        else {
            Issue.record("refused")
            return
        }
        #expect(report.routeFilesRead == 0)
        #expect(report.routeProblems.first?.reason.contains(reason) == true, "\(report.routeProblems)")
        #expect(report.summary.added == 2)
    }

    @Test("Files of one name in a zip are named in the report, and the first is the one read")
    func repeatedEntries() throws {
        let first = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>" + HostileExport.point + "</trkseg></trk></gpx>\n"
        let second = first.replacingOccurrences(of: "1.5", with: "2.5")
        let bytes = CraftedZip.make([
            CraftedZip.stored("apple_health_export/export.xml", HostileExport.document(HostileExport.record + "/>\n" + HostileExport.workout)),
            CraftedZip.stored("apple_health_export/export.xml", HostileExport.document(HostileExport.record.replacingOccurrences(of: "\"12\"", with: "\"13\"") + "/>")),
            CraftedZip.stored("apple_health_export/workout-routes/route_1.gpx", Array(first.utf8)),
            CraftedZip.stored("apple_health_export/workout-routes/route_1.gpx", Array(second.utf8)),
        ])
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try ByteSurgery.write(bytes, to: dir.file("export.zip"))
        let store = HealthStore(directory: dir.file("store"))
        let report = try store.importExport(at: dir.file("export.zip"))
        #expect(report.repeatedEntries.map(\.name) == ["apple_health_export/export.xml", "apple_health_export/workout-routes/route_1.gpx"])
        #expect(report.repeatedEntries.map(\.count) == [2, 2])
        #expect(report.routeFilesRead == 1)
        #expect(report.summary.added == 3)
        let lines = try Self.lines(store)
        #expect(lines.contains { $0.contains("\"lat\":1.5") })
        #expect(!lines.contains { $0.contains("\"lat\":2.5") })
        #expect(lines.contains { $0.contains("\"value\":12") })
    }
}
