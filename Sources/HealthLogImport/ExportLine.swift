/// How a message names an element's line in the export document. libxml2's reader keeps a
/// line past 65,534 only when the next node it makes is in the same piece of input; else
/// the element's line is 65,535 (``ExportDocumentReader/unkeptLine``), which the import
/// keeps as the reader gives it. A message then says "past line 65,534", which is true,
/// rather than name a line the element is not on.
enum ExportLine {
    /// `line N`, or `past line 65,534` for a line not kept.
    static func text(_ line: Int) -> String {
        line == ExportDocumentReader.unkeptLine ? "past line 65,534" : "line \(line)"
    }

    /// `at line N`, or `past line 65,534` for a line not kept.
    static func at(_ line: Int) -> String {
        line == ExportDocumentReader.unkeptLine ? text(line) : "at " + text(line)
    }
}
