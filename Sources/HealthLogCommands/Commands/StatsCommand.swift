import HealthLog

/// `healthlog stats`: per-type counts and dates, and the store's size.
enum StatsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stats", abstract: "Show per-type counts and dates, and the store's size.",
        discussion: "Per type: live samples, deleted objects, and the first start and last end of any sample of the type ever added. Then events, segments, bytes on disk and the compression ratio, and for an encrypted store the cipher new data is sealed with. Answered from the index, without reading events.")

    static func run(_ arguments: ParsedArguments<NoOptions>, _ context: Context) throws -> Int32 {
        let store = try context.store()
        let stats = try store.stats()
        let t = context.terminal
        let width = max(4, stats.types.map(\.type.count).max() ?? 0)
        func pad(_ text: String, _ n: Int, right: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, n - text.count))
            return right ? fill + text : text + fill
        }
        t.print("\(pad("type", width))  \(pad("live", 10, right: true))  \(pad("deleted", 8, right: true))  \(pad("first", 24))  last")
        for type in stats.types {
            t.print("\(pad(type.type, width))  \(pad(String(type.live), 10, right: true))  \(pad(String(type.deleted), 8, right: true))  \(pad(type.first.description, 24))  \(type.last)")
        }
        t.print("")
        t.print("events             \(stats.events)")
        t.print("segments           \(stats.segments) (\(String(counting: stats.batches, "batch")))")
        t.print("bytes on disk      \(stats.bytesOnDisk)")
        t.print("NDJSON bytes       \(stats.rawBytes)")
        let ratio = (stats.compressionRatio * 100).rounded() / 100
        t.print("compression ratio  \(ratio) (NDJSON bytes per segment byte)")
        if let (cipher, epoch) = try store.currentCipher() { t.print("encryption         \(cipher.name) (key epoch \(epoch))") }
        return ExitCode.success
    }
}
