#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thing the import worker (`healthlog-import`) tells `healthlog`, which does the
/// printing. Both ends of the pipe use this type: the worker writes ``line``, `healthlog`
/// reads with ``receive(from:_:)``.
///
/// On the pipe a message is one line of fields separated by tabs, each field with `\`,
/// tab, carriage return and newline escaped as `\\`, `\t`, `\r`, `\n`; the first field names the message.
package enum ImportWorkerMessage: Equatable, Sendable {
    /// `progress STAGE DONE TOTAL`: where a pass is, in MiB of the input.
    case progress(stage: String, done: Int, total: Int)
    /// `stderr TEXT`: a line for standard error.
    case stderr(String)
    /// `stdout TEXT`: a line for standard output, flushed before the next message.
    case stdout(String)
    /// `failure CODE ERRNO MESSAGE`: the import failed (`ERRNO` empty when there is none).
    case failure(HealthLogError)

    /// The message as one line, newline included.
    package var line: String {
        let fields: [String]
        switch self {
        case .progress(let stage, let done, let total): fields = ["progress", stage, String(done), String(total)]
        case .stderr(let text): fields = ["stderr", text]
        case .stdout(let text): fields = ["stdout", text]
        case .failure(let error): fields = ["failure", error.code.rawValue, error.errno.map(String.init) ?? "", error.message]
        }
        return fields.map(Self.escaped).joined(separator: "\t") + "\n"
    }

    /// The message a line (without its newline) holds; `nil` for a line that is none
    /// (passed over, so a newer worker's messages do not stop an older `healthlog`).
    package init?(line: String) {
        let fields = line.unicodeScalars.split(separator: "\t", omittingEmptySubsequences: false).map(Self.unescaped)
        switch (fields.first, fields.count) {
        case ("progress", 4): self = .progress(stage: fields[1], done: Self.count(fields[2], else: 0), total: Self.count(fields[3], else: 1))
        case ("stderr", 2): self = .stderr(fields[1])
        case ("stdout", 2): self = .stdout(fields[1])
        case ("failure", 4): self = .failure(HealthLogError(HealthLogError.Code(rawValue: fields[1]), fields[3], errno: Int32(fields[2])))
        default: return nil
        }
    }

    /// A progress count: `text` as a number in 0...2⁴⁸ (far past any count, and small
    /// enough to turn into a percentage), else `fallback`.
    private static func count(_ text: String, else fallback: Int) -> Int {
        guard let value = Int(text), value >= 0 else { return fallback }
        return min(value, 1 << 48)
    }

    /// Calls `body` with each message read from `fd` until its end.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when `fd` cannot be read; what `body` throws.
    package static func receive(from fd: Int32, _ body: (ImportWorkerMessage) throws -> Void) throws {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else {
                let code = errno
                throw HealthLogError(.io, "cannot read from healthlog-import: \(String(cString: strerror(code)))", errno: code)
            }
            if n == 0 { return }
            pending += chunk[0..<n]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let message = ImportWorkerMessage(line: line) { try body(message) }
            }
        }
    }

    /// `text` with `\`, tab, carriage return and newline escaped, scalar by scalar (a
    /// `Character` may join a line break to what follows it, as "\r\n" does).
    private static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A field with `\\`, `\t`, `\r` and `\n` turned back into what they stand for.
    private static func unescaped(_ field: Substring.UnicodeScalarView) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in field {
            if escaping {
                switch scalar {
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "n": out.append("\n")
                default: out.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
