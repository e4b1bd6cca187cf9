/// Text in charts: XML escaping, and a conservative estimate of how wide a label is drawn,
/// so axes can place labels that never overlap.
enum ChartText {
    /// `text` with XML's special characters escaped, and control characters other than tab,
    /// newline and carriage return (which XML and HTML text may not hold) replaced by U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The width of `text` at `fontSize` px in a sans-serif font, erring wide: per-character
    /// advances a little above DejaVu Sans's and Arial's (digits 0.64 em, capitals up to
    /// 0.86 em, lower case 0.62 em, narrow punctuation 0.36 em).
    static func width(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for c in text.unicodeScalars {
            switch c {
            case "0"..."9": em += 0.64
            case "M", "W", "m", "w": em += 0.92
            case "A"..."Z": em += 0.76
            case "a"..."z": em += 0.62
            case " ", ".", ",", ":", ";", "'", "i", "l", "|": em += 0.36
            case "-", "–", "(", ")", "/": em += 0.42
            default: em += 0.9
            }
        }
        return em * fontSize
    }
}
