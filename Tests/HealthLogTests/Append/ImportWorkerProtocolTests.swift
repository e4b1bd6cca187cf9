import Foundation
import Glibc
import Testing
@testable import HealthLog

/// The import worker's protocol, defined once for both ends: what `healthlog` passes
/// (``ImportWorkerRequest``) reads back as the same request, and every message the worker
/// writes (``ImportWorkerMessage``) reads back as the same message.
@Suite("Import worker protocol")
struct ImportWorkerProtocolTests {
    static let messages: [ImportWorkerMessage] = [
        .progress(stage: "checking", done: 3, total: 120),
        .stderr("healthlog: read export.xml, locale en_US"),
        .stdout("AQAAAAAAAAAA"),
        .stderr("tab\there, newline\nhere, backslash \\ and \\t literally"),
        .stdout(""),
        .failure(HealthLogError(.corrupt, "segments/x at byte 12: damaged\tline\ntwo")),
        .failure(HealthLogError(.io, "cannot write: No space left on device", errno: ENOSPC)),
        .failure(HealthLogError(.badInput, "export.xml: route a\r\nb.gpx not read")),
        .stderr("x\t\u{301}y"),
        .stdout("\u{301}a field that opens with a combining mark"),
    ]

    @Test("Each message is one line that reads back as the same message", arguments: messages)
    func messageRoundTrip(_ message: ImportWorkerMessage) {
        let line = message.line
        #expect(line.utf8.last == 0x0A && !line.utf8.dropLast().contains(0x0A) && !line.utf8.contains(0x0D))
        #expect(ImportWorkerMessage(line: String(line.dropLast())) == message)
    }

    @Test("A progress count from the pipe is a number a percentage can be made of, whatever the line says")
    func progressCountsBounded() {
        let message = ImportWorkerMessage(line: "progress\tx\t9223372036854775807\t-5")
        guard case .progress(_, let done, let total) = message else { Issue.record("\(String(describing: message))"); return }
        #expect(done <= 1 << 48 && total == 1)
        #expect(done.multipliedReportingOverflow(by: 100).overflow == false)
    }

    @Test("Messages read from a pipe arrive whole and in order, lines that are no message passed over")
    func receive() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        var bytes = Array(Self.messages.map(\.line).joined().utf8)
        bytes.insert(contentsOf: Array("newer-message\tx\n".utf8), at: Self.messages[0].line.utf8.count)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        close(ends[1])
        var received: [ImportWorkerMessage] = []
        try ImportWorkerMessage.receive(from: ends[0]) { received.append($0) }
        close(ends[0])
        #expect(received == Self.messages)
    }

    @Test("The request's arguments read back as the same request")
    func requestRoundTrip() throws {
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 65_536
        options.batchBytes = 16_384
        options.lockTimeout = 2.5
        options.faults.kill = (.batchWritten, 3)
        options.faults.failWritesAfterBytes = 4_096
        options.faults.failSync = true
        let request = ImportWorkerRequest(storePath: "/data/store", exportPath: "/in/export.zip", storeOptions: options, mirror: true, parentPipe: 0)
        let read = try ImportWorkerRequest(arguments: request.arguments, acceptsFaults: true)
        #expect(read.storePath == "/data/store" && read.exportPath == "/in/export.zip" && read.mirror && read.parentPipe == 0)
        #expect(!read.storeOptions.sync && read.storeOptions.segmentBytes == 65_536 && read.storeOptions.batchBytes == 16_384)
        #expect(read.storeOptions.lockTimeout == 2.5)
        #expect(read.storeOptions.faults == options.faults)
        #expect(read.storeOptions.origin == AppendOrigin(command: "import", file: "export.zip"))
        let plain = try ImportWorkerRequest(arguments: ImportWorkerRequest(storePath: "s", exportPath: "e", storeOptions: StoreOptions(), mirror: false, parentPipe: nil).arguments, acceptsFaults: false)
        #expect(!plain.mirror && plain.parentPipe == nil && plain.storeOptions.sync)
    }

    @Test("The shipping worker refuses a fault plan")
    func faultsRefused() {
        var options = StoreOptions()
        options.faults.failSync = true
        let request = ImportWorkerRequest(storePath: "s", exportPath: "e", storeOptions: options, mirror: false, parentPipe: nil)
        #expect(throws: HealthLogError.self) { try ImportWorkerRequest(arguments: request.arguments, acceptsFaults: false) }
    }
}
