/// How a command describes itself: the text of its `--help` and the options it accepts.
struct CommandSpec {
    /// One option: `--name <value>` or a flag.
    struct Option {
        var name: String
        var value: String?
        var help: String
        var repeatable = false
        /// A one-letter spelling, e.g. `-o`.
        var short: String? = nil
    }

    var name: String
    var abstract: String
    var usage: String
    var arguments: [(name: String, help: String)] = []
    var options: [Option]
    var discussion: String?

    /// The help text, in the shape OVERVIEW / USAGE / ARGUMENTS / OPTIONS.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: healthlog [--store <dir>] \(name)\(usage.isEmpty ? "" : " " + usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += Self.row(argument.name, argument.help) }
        }
        text += "\nOPTIONS:\n"
        text += Self.row("--store <dir>", "The store directory (default: $HEALTHLOG_STORE, else ./healthlog.store).")
        for option in options {
            let long = option.value.map { "\(option.name) <\($0)>" } ?? option.name
            let left = option.short.map { "\($0), \(long)" } ?? long
            text += Self.row(left, option.help + (option.repeatable ? " Repeatable." : ""))
        }
        text += Self.row("-h, --help", "Show help information.")
        if let discussion { text += "\n" + Self.wrap(discussion, width: 80) + "\n" }
        return text
    }

    /// `text` broken into lines of at most `width` columns at spaces.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + word.count + 1 > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }

    /// One aligned help row, wrapped at 80 columns.
    static func row(_ left: String, _ right: String) -> String {
        let width = 26
        let lines = wrap(right, width: 80 - width - 2).split(separator: "\n", omittingEmptySubsequences: false)
        let pad = String(repeating: " ", count: width + 2)
        var out = "  " + left
        if left.count + 2 >= width + 1 {
            out += "\n" + pad
        } else {
            out += String(repeating: " ", count: width - left.count)
        }
        out += lines.first ?? ""
        for line in lines.dropFirst() { out += "\n" + pad + line }
        return out + "\n"
    }
}
