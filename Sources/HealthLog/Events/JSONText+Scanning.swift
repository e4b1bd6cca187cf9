/// What JSONText needs the event parser's scanner for: recognising a number as the
/// parser reads it.
extension JSONText {
    /// A command-line value as JSON: a number or boolean when it reads as one, else a string.
    package static func scalar(_ text: String) -> String {
        if text == "true" || text == "false" || isNumber(text) { return text }
        return string(text)
    }

    /// Whether `text` is exactly a finite number in JSON's grammar (RFC 8259 §6), as the
    /// event parser reads it: no sign but `-`, no leading zeros, digits on both sides of
    /// a `.`, no blanks.
    package static func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else { return false }
            var scanner = JSONScanner(UnsafeRawBufferPointer(bytes))
            guard (try? scanner.number()) != nil else { return false }
            return scanner.position == bytes.count
        }
    }
}
