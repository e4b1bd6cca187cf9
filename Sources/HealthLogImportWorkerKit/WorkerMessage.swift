#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// One thing the worker tells `healthlog`, which does the printing: one line of fields
/// separated by tabs, each field with `\`, tab and newline escaped as `\\`, `\t`, `\n`.
/// `healthlog`'s `ImportWorker` reads them.
enum WorkerMessage {
    /// `progress STAGE DONE TOTAL`: where a pass is, in MiB of the input.
    case progress(stage: String, done: Int, total: Int)
    /// `stderr TEXT`: a line for standard error.
    case stderr(String)
    /// `stdout TEXT`: a line for standard output, flushed before the next message.
    case stdout(String)
    /// `failure CODE ERRNO MESSAGE`: the import failed (`ERRNO` empty when there is none).
    case failure(HealthLogError)

    /// The message as one line, newline included.
    var line: String {
        let fields: [String]
        switch self {
        case .progress(let stage, let done, let total): fields = ["progress", stage, String(done), String(total)]
        case .stderr(let text): fields = ["stderr", text]
        case .stdout(let text): fields = ["stdout", text]
        case .failure(let error): fields = ["failure", error.code.rawValue, error.errno.map(String.init) ?? "", error.message]
        }
        return fields.map(Self.escaped).joined(separator: "\t") + "\n"
    }

    /// `text` with `\`, tab and newline escaped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}

/// The worker's end of the pipe to `healthlog`: each message written whole with `write(2)`
/// as soon as it is sent.
struct WorkerChannel {
    /// The descriptor (standard output).
    let fd: Int32

    /// Writes `message`. A failed write means `healthlog` is gone; the import goes on, as
    /// it would with nobody reading its output.
    func send(_ message: WorkerMessage) {
        var bytes = Array(message.line.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}
