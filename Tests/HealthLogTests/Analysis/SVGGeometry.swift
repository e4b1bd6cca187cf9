/// Reads back the geometry of a chart's SVG: the plot area, the marks and the labels, by
/// the classes ``ChartFrame`` gives them, so tests can check what a browser would show.
struct SVGGeometry {
    /// One element: its name, attributes and the text inside it (tspans joined by newlines).
    struct Element {
        var name: String
        var attributes: [String: String]
        var lines: [String]

        func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
    }

    var elements: [Element] = []

    init(_ svg: String) {
        var rest = Substring(svg)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            guard let first = tag.first, first != "/", first != "?" else { continue }
            let name = String(tag.prefix { $0 != " " && $0 != "/" })
            var attributes: [String: String] = [:]
            var scan = tag.dropFirst(name.count)
            while let eq = scan.firstIndex(of: "=") {
                let key = scan[..<eq].trimmingSpaces
                let afterEq = scan[scan.index(after: eq)...]
                guard afterEq.first == "\"", let end = afterEq.dropFirst().firstIndex(of: "\"") else { break }
                attributes[String(key)] = String(afterEq[afterEq.index(after: afterEq.startIndex)..<end])
                scan = afterEq[afterEq.index(after: end)...]
            }
            var lines: [String] = []
            if name == "text", !tag.hasSuffix("/") {
                let end = rest.range(of: "</text>")?.lowerBound ?? rest.endIndex
                var inner = rest[..<end]
                if inner.contains("<tspan") {
                    while let t = inner.range(of: "<tspan") {
                        inner = inner[t.upperBound...]
                        guard let gt = inner.firstIndex(of: ">"), let stop = inner.range(of: "</tspan>") else { break }
                        lines.append(String(inner[inner.index(after: gt)..<stop.lowerBound]))
                        inner = inner[stop.upperBound...]
                    }
                } else {
                    lines = [String(inner)]
                }
            }
            elements.append(Element(name: name, attributes: attributes, lines: lines))
        }
    }

    /// The elements of class `name`.
    func elements(ofClass name: String) -> [Element] { elements.filter { $0.attributes["class"] == name } }

    /// The plot area: x, y, width, height.
    var plotArea: (x: Double, y: Double, width: Double, height: Double)? {
        elements(ofClass: "plot-area").first.map { ($0.number("x"), $0.number("y"), $0.number("width"), $0.number("height")) }
    }

    /// The points of every mark (corners of bars, centres of points, vertices of lines and bands).
    var markPoints: [(Double, Double)] {
        elements(ofClass: "mark").flatMap { e -> [(Double, Double)] in
            switch e.name {
            case "rect": return [(e.number("x"), e.number("y")), (e.number("x") + e.number("width"), e.number("y") + e.number("height"))]
            case "circle": return [(e.number("cx"), e.number("cy"))]
            case "line": return [(e.number("x1"), e.number("y1")), (e.number("x2"), e.number("y2"))]
            default:
                return (e.attributes["points"] ?? "").split(separator: " ").map { pair in
                    let xy = pair.split(separator: ",")
                    return (Double(xy.first ?? "") ?? .nan, Double(xy.last ?? "") ?? .nan)
                }
            }
        }
    }

    /// The boxes of the x labels, at realistic sans-serif advances (DejaVu Sans: 0.64 em for
    /// digits and most letters, 0.34 em for spaces and punctuation) at 12 px.
    var xLabelBoxes: [(left: Double, right: Double, text: String)] {
        elements(ofClass: "tick-x").map { e in
            let width = e.lines.map { line in line.reduce(0.0) { $0 + ($1.isLetter || $1.isNumber ? 0.64 : 0.34) * 12 } }.max() ?? 0
            return (e.number("x") - width / 2, e.number("x") + width / 2, e.lines.joined(separator: " "))
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
