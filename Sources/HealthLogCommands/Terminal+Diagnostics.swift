/// The one shape of every diagnostic the tool writes to stderr: `healthlog: error: MESSAGE`
/// for a failure and `healthlog: note: MESSAGE` for something worth knowing that is not one
/// (a torn tail cut, an empty input). Summaries of what a command did are
/// `healthlog: SUMMARY` (`healthlog: added 3, deleted 0, …`).
extension Terminal {
    /// Writes `healthlog: error: MESSAGE` to stderr.
    func failure(_ message: String) {
        error("healthlog: error: \(message)")
    }

    /// Writes `healthlog: note: MESSAGE` to stderr.
    func note(_ message: String) {
        error("healthlog: note: \(message)")
    }

    /// Writes `healthlog: SUMMARY` to stderr.
    func summary(_ text: String) {
        error("healthlog: \(text)")
    }
}
