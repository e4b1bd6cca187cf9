extension MetadataValue {
    /// A command-line value: `true` or `false` as a boolean, text that is exactly a finite
    /// JSON number as a number, anything else as a string. The command-line tool's `add`
    /// reads `--value` and `--metadata` values this way.
    package init(commandLine text: String) {
        if text == "true" || text == "false" {
            self = .bool(text == "true")
        } else if JSONText.isNumber(text), let number = Double(text), number.isFinite {
            self = .number(number)
        } else {
            self = .string(text)
        }
    }
}
