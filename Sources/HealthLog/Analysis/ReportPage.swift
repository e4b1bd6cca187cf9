/// A health report as one self-contained HTML page (what `healthlog report` writes): a
/// title, then sections of tables and charts. Everything the page shows is in the file
/// (inline CSS, inline SVG, no script, no link to anything outside), so it opens offline
/// and prints to PDF with each chart kept on one page.
package struct ReportPage {
    /// One section: a heading and its HTML.
    package struct Section {
        /// The section's `id` (`glance`, `activity`, …).
        package var id: String
        /// The heading.
        package var title: String
        /// The HTML under the heading.
        package var body: String

        /// A section.
        package init(id: String, title: String, body: String) {
            self.id = id
            self.title = title
            self.body = body
        }
    }

    /// The page's title.
    package var title: String
    /// The line under the title: the span, the clock.
    package var subtitle: String
    /// The sections, in order.
    package var sections: [Section]

    /// A page.
    package init(title: String, subtitle: String, sections: [Section]) {
        self.title = title
        self.subtitle = subtitle
        self.sections = sections
    }

    /// The style sheet: screen and print.
    private static let style = """
        body { font-family: sans-serif; color: #222; max-width: 1000px; margin: 24px auto; padding: 0 16px; line-height: 1.4; }
        h1 { font-size: 24px; margin-bottom: 4px; }
        h2 { font-size: 19px; border-bottom: 2px solid #3b7dd8; padding-bottom: 3px; margin-top: 32px; }
        h3 { font-size: 15px; margin: 18px 0 6px; }
        p.sub, p.note { color: #555; margin-top: 0; }
        nav a { margin-right: 12px; color: #1f5fa8; }
        table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
        th, td { border-bottom: 1px solid #ddd; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
        th { border-bottom: 1px solid #888; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
        figure { margin: 8px 0 20px; break-inside: avoid; page-break-inside: avoid; }
        figure svg.chart { width: 100%; height: auto; display: block; }
        svg.track { width: 90px; height: 90px; display: block; }
        @page { size: A4; margin: 14mm; }
        @media print {
          body { max-width: none; margin: 0; padding: 0; font-size: 11px; }
          nav { display: none; }
          h2 { break-before: page; page-break-before: always; }
          section:first-of-type h2 { break-before: auto; page-break-before: auto; }
          h2, h3 { break-after: avoid; page-break-after: avoid; }
          tr { break-inside: avoid; page-break-inside: avoid; }
        }
        """

    /// The HTML document.
    package var html: String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(Self.escaped(title))</title>\n<style>\n\(Self.style)\n</style>\n</head>\n<body>\n"
        out += "<h1>\(Self.escaped(title))</h1>\n<p class=\"sub\">\(Self.escaped(subtitle))</p>\n"
        out += "<nav>" + sections.map { "<a href=\"#\($0.id)\">\(Self.escaped($0.title))</a>" }.joined() + "</nav>\n"
        for section in sections {
            out += "<section id=\"\(section.id)\">\n<h2>\(Self.escaped(section.title))</h2>\n\(section.body)</section>\n"
        }
        return out + "</body>\n</html>\n"
    }

    /// Writes the page to `path` atomically, mode 0600 (a report of health data is health
    /// data).
    package func write(to path: String) throws {
        try DurableFile.replace(path, with: Array(html.utf8))
    }

    /// `text` with `&`, `<`, `>` and quotes escaped.
    package static func escaped(_ text: String) -> String {
        ChartText.escaped(text)
    }

    /// A chart's SVG document as a figure of the page: without its XML namespace (HTML
    /// needs none) and scaled to the page's width.
    package static func figure(_ svg: String) -> String {
        let opening = #"<svg xmlns="http://www.w3.org/2000/svg" width="960" height="480""#
        let inline = svg.hasPrefix(opening) ? #"<svg class="chart""# + svg.dropFirst(opening.count) : Substring(svg)
        return "<figure>\n\(inline)</figure>\n"
    }

    /// A table of `rows` under `headers`; the columns in `numeric` are right-aligned. Cells
    /// are text, escaped here, except those of the columns in `html`.
    package static func table(_ headers: [String], _ rows: [[String]], numeric: Set<Int> = [], html: Set<Int> = []) -> String {
        func cls(_ k: Int) -> String { numeric.contains(k) ? " class=\"n\"" : "" }
        var out = "<table>\n<tr>" + headers.enumerated().map { "<th\(cls($0))>\(escaped($1))</th>" }.joined() + "</tr>\n"
        for row in rows {
            out += "<tr>" + row.enumerated().map { "<td\(cls($0))>\(html.contains($0) ? $1 : escaped($1))</td>" }.joined() + "</tr>\n"
        }
        return out + "</table>\n"
    }
}
