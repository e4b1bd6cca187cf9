#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// An encrypted store's secrets and key slots from the outside: `init --encrypt`, the
/// secret sources, exit 4, `key list/add/remove/rotate`, kills during slot changes, damaged
/// slot files, and `unlock`/`lock`. New passphrase slots are made by the fault tool with
/// `HEALTHLOG_TEST_WEAK_KDF=1` (libsodium's least Argon2id cost), so the tests run fast;
/// the shipping binary opens them with the cost stored in each slot.
@Suite("Key slots")
struct KeySlotsCLITests {
    /// The environment that makes cheap passphrase slots.
    static let weak = ["HEALTHLOG_TEST_WEAK_KDF": "1"]

    /// A directory with a passphrase file `p1` ("first secret"), `p2`, a wrong one `bad`,
    /// key files `k1` and `k2` (32 random bytes each), and an encrypted store `store`
    /// whose slot 1 opens with `p1`.
    struct Fixture {
        let dir: TemporaryDirectory
        var store: String { dir.file("store") }
        func file(_ name: String) -> String { dir.file(name) }

        init(creatingStore: Bool = true) throws {
            dir = try TemporaryDirectory()
            try "first secret\n".write(toFile: dir.file("p1"), atomically: true, encoding: .utf8)
            try "second secret".write(toFile: dir.file("p2"), atomically: true, encoding: .utf8)
            try "not the secret\n".write(toFile: dir.file("bad"), atomically: true, encoding: .utf8)
            for name in ["k1", "k2"] {
                try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: dir.file(name)))
            }
            if creatingStore {
                let made = try run(["--passphrase-file", file("p1"), "init", "--encrypt"], tool: HealthLogBinary.faultTool)
                try #require(made.status == 0, "\(made.stderr)")
            }
        }

        /// Runs `healthlog --store STORE ARGUMENTS` (or the fault tool's, making cheap slots).
        func run(
            _ arguments: [String], stdin: String = "", environment: [String: String] = [:], tool: BuiltProgram = HealthLogBinary.program
        ) throws -> BuiltProgram.Result {
            try tool.run(["--store", store] + arguments, stdin: stdin, environment: environment.merging(KeySlotsCLITests.weak) { a, _ in a })
        }

        /// Whether `secret` (global options) opens the store: `replay` reads it and `key add` on
        /// a copy of it succeeds.
        func opens(_ secret: [String]) throws -> Bool {
            let copy = dir.file("copy-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try FileManager.default.copyItem(atPath: store, toPath: copy)
            let result = try HealthLogBinary.faultTool.run(
                ["--store", copy] + secret + ["key", "add", "--new-key-file", file("k2")], environment: KeySlotsCLITests.weak)
            let replay = try HealthLogBinary.run(["--store", store] + secret + ["replay", "--raw"])
            return result.status == 0 && replay.status == 0
        }

        /// `key list`'s standard output, given `secret` (global options) to check the entries.
        func list(_ secret: [String] = []) throws -> String {
            let listed = try run(secret + ["key", "list"])
            #expect(listed.status == 0, "\(listed.stderr)")
            return listed.stdout
        }
    }

    @Test("init --encrypt makes a private format-2 store whose one slot opens with the secret given, and prints its identity")
    func initEncrypt() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let meta = try String(contentsOfFile: f.store + "/meta", encoding: .utf8)
        #expect(meta.contains("\nformat 2\n") && meta.contains("\nencryption xchacha20poly1305\n"))
        #expect(try ByteSurgery.mode(f.store) & 0o777 == 0o700)
        #expect(try ByteSurgery.mode(f.store + "/keys") & 0o777 == 0o700)
        #expect(try ByteSurgery.mode(f.store + "/keys/0001.slot") & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.store + "/keys") == ["0001.slot"])
        #expect(try f.opens(["--passphrase-file", f.file("p1")]))
        #expect(try !f.opens(["--passphrase-file", f.file("bad")]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".init-") || $0.contains("healthlog-lock") }.isEmpty)
    }

    @Test("init on a store that exists exits 2 and changes nothing, encrypted or not; init --encrypt also refuses a directory that is not empty")
    func initTwice() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let before = try ByteSurgery.image(of: f.store)
        for arguments in [["init"], ["--passphrase-file", f.file("p2"), "init", "--encrypt"]] {
            let again = try f.run(arguments)
            #expect(again.status == 2 && again.stdout.isEmpty && again.stderr.contains("already holds a healthlog store"), "\(again.stderr)")
        }
        #expect(try ByteSurgery.image(of: f.store) == before)
        let plain = try HealthLogBinary.run(["--store", f.file("plain"), "init"])
        #expect(plain.status == 0 && plain.stdout.count == 37)
        #expect(try HealthLogBinary.run(["--store", f.file("plain"), "init"]).status == 2)
        #expect(try HealthLogBinary.run(["--store", f.file("plain"), "anchor"]).status == 0)
        try FileManager.default.createDirectory(atPath: f.file("full"), withIntermediateDirectories: false)
        try "x".write(toFile: f.file("full/note"), atomically: true, encoding: .utf8)
        #expect(try HealthLogBinary.faultTool.run(["--store", f.file("full"), "--passphrase-file", f.file("p1"), "init", "--encrypt"], environment: Self.weak).status == 2)
        try FileManager.default.createDirectory(atPath: f.file("empty"), withIntermediateDirectories: false)
        #expect(try HealthLogBinary.faultTool.run(["--store", f.file("empty"), "--passphrase-file", f.file("p1"), "init", "--encrypt"], environment: Self.weak).status == 0)
        #expect(FileManager.default.fileExists(atPath: f.file("empty/keys/0001.slot")))
    }

    @Test("Without a secret, or with a wrong one, a command on an encrypted store exits 4, prints nothing on stdout and writes nothing")
    func exitFour() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "append"], stdin: Events.lines(1...20)).status == 0)
        let before = try ByteSurgery.image(of: f.store)
        let attempts: [(secret: [String], environment: [String: String], message: String)] = [
            ([], [:], "is encrypted: give its passphrase or key with --passphrase-file FILE"),
            (["--passphrase-file", f.file("bad")], [:], "the passphrase given opens no key slot"),
            (["--key-file", f.file("k1")], [:], "the key file given opens no key slot"),
            ([], ["HEALTHLOG_PASSPHRASE": "first secret!"], "the passphrase given opens no key slot"),
        ]
        for attempt in attempts {
            for command in [["replay"], ["append"], ["anchor"], ["verify"], ["key", "add", "--new-key-file", f.file("k2")], ["key", "rotate"], ["key", "remove", "1"], ["unlock"]] {
                let result = try f.run(attempt.secret + command, stdin: Events.lines(21...30), environment: attempt.environment)
                #expect(result.status == 4, "\(command): \(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains(attempt.message), "\(result.stderr)")
            }
        }
        #expect(try ByteSurgery.image(of: f.store) == before)
    }

    @Test("Each secret source opens the store, and the first one given is the one used")
    func secretSources() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).stdout == "2\n")
        let sources: [(arguments: [String], environment: [String: String])] = [
            (["--passphrase-file", f.file("p1")], [:]),
            (["--passphrase-file=" + f.file("p1")], [:]),
            (["--key-file", f.file("k1")], [:]),
            ([], ["HEALTHLOG_PASSPHRASE_FILE": f.file("p1")]),
            ([], ["HEALTHLOG_KEY_FILE": f.file("k1")]),
            ([], ["HEALTHLOG_PASSPHRASE": "first secret"]),
            (["--passphrase-file", f.file("p1")], ["HEALTHLOG_KEY_FILE": f.file("bad"), "HEALTHLOG_PASSPHRASE": "wrong"]),
            ([], ["HEALTHLOG_PASSPHRASE_FILE": f.file("p1"), "HEALTHLOG_PASSPHRASE": "wrong"]),
        ]
        #expect(try f.run(["--passphrase-file", f.file("p1"), "append"], stdin: Events.lines(1...5)).status == 0)
        for source in sources {
            let replay = try f.run(source.arguments + ["replay", "--raw"], environment: source.environment)
            #expect(replay.status == 0 && replay.stdout.split(separator: "\n").count == 5, "\(source): \(replay.stderr)")
        }
        #expect(try f.run(["--passphrase-file", f.file("bad"), "replay"], environment: ["HEALTHLOG_KEY_FILE": f.file("k1")]).status == 4)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "--key-file", f.file("k1"), "key", "rotate"]).status == 2)
        let plain = f.file("plain")
        #expect(try HealthLogBinary.run(["--store", plain, "append"], stdin: Events.lines(1...3)).status == 0)
        let ignored = try HealthLogBinary.run(["--store", plain, "--passphrase-file", f.file("bad"), "replay", "--raw"])
        #expect(ignored.status == 0 && ignored.stdout.split(separator: "\n").count == 3, "a plaintext store ignores a secret: \(ignored.stderr)")
        try "abc".write(toFile: f.file("short"), atomically: true, encoding: .utf8)
        let short = try f.run(["--key-file", f.file("short"), "key", "rotate"])
        #expect(short.status == 2 && short.stderr.contains("needs at least 32 random bytes"), "\(short.stderr)")
    }

    @Test("key add prints the new slot's id and the new secret opens the store; key remove drops a slot; key list shows both")
    func addRemoveList() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let added = try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-passphrase-file", f.file("p2")], tool: HealthLogBinary.faultTool)
        #expect(added.status == 0 && added.stdout == "2\n", "\(added.stderr)")
        let keyed = try f.run(["--passphrase-file", f.file("p2"), "key", "add"], environment: ["HEALTHLOG_NEW_PASSPHRASE_FILE": ""])
        #expect(keyed.status == 2, "no new secret and no terminal: \(keyed.stderr)")
        #expect(try f.run(["--passphrase-file", f.file("p2"), "key", "add", "--new-key-file", f.file("k1")]).stdout == "3\n")
        #expect(try f.opens(["--passphrase-file", f.file("p2")]))
        #expect(try f.opens(["--key-file", f.file("k1")]))
        let listed = try f.list(["--key-file", f.file("k1")]).split(separator: "\n").map(String.init)
        #expect(listed.count == 7)
        #expect(listed[1].hasPrefix("1     passphrase  ") && listed[1].hasSuffix("  0"))
        #expect(listed[2].hasPrefix("2     passphrase  "))
        #expect(listed[3].hasPrefix("3     key file    "))
        #expect(listed[4] == "current epoch: 0")
        #expect(listed[5] == "segments sealed under: nothing yet")
        #expect(listed[6].hasPrefix("ciphers: epoch 0 "))

        // Changing a passphrase: the old slot removed, giving the new passphrase.
        let refused = try f.run(["--passphrase-file", f.file("p1"), "key", "remove", "1"])
        #expect(refused.status == 2 && refused.stderr.contains("opens key slot 1 itself"), "\(refused.stderr)")
        let removed = try f.run(["--passphrase-file", f.file("p2"), "key", "remove", "1"])
        #expect(removed.status == 0 && removed.stdout.isEmpty, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.store + "/keys/0001.slot"))
        #expect(try !f.opens(["--passphrase-file", f.file("p1")]))
        #expect(try f.opens(["--passphrase-file", f.file("p2")]))
        #expect(try f.run(["--key-file", f.file("k1"), "key", "remove", "7"]).status == 2)
    }

    @Test("key remove never removes the last slot: exit 2 with the reason, the slot stays")
    func neverTheLast() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).status == 0)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "remove", "2"]).status == 0)
        let before = try ByteSurgery.image(of: f.store)
        let last = try f.run(["--passphrase-file", f.file("p1"), "key", "remove", "1"])
        #expect(last.status == 2 && last.stderr.contains("last key slot"), "\(last.stderr)")
        #expect(try ByteSurgery.image(of: f.store) == before)
        #expect(try f.opens(["--passphrase-file", f.file("p1")]))
    }

    @Test("A slot file put back to its copy from before a rotation: key list says the segments are sealed under a newer epoch than the current one, an append exits 1 and writes nothing, and removing that slot lets appends go on")
    func slotPutBackBeforeARotation() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let p1 = ["--passphrase-file", f.file("p1")]
        #expect(try f.run(p1 + ["key", "add", "--new-key-file", f.file("k1")]).stdout == "2\n")
        let older = try ByteSurgery.read(f.store + "/keys/0002.slot")
        #expect(try f.run(p1 + ["key", "rotate"]).stdout == "1\n")
        #expect(try f.run(p1 + ["append"], stdin: Events.lines(1...10)).status == 0)
        try ByteSurgery.write(older, to: f.store + "/keys/0002.slot")
        let listed = try f.run(p1 + ["key", "list"]).stdout
        #expect(listed.contains("current epoch: 0\n") && listed.contains("damaged: segments are sealed under epoch 1, newer than the current one"), "\(listed)")
        let before = try ByteSurgery.image(of: f.store + "/segments")
        let refused = try f.run(p1 + ["append"], stdin: Events.lines(11...12))
        #expect(refused.status == 1 && refused.stderr.contains("is sealed under epoch 1"), "\(refused.stderr)")
        #expect(try ByteSurgery.image(of: f.store + "/segments") == before)
        #expect(try f.run(p1 + ["key", "remove", "2"]).status == 0)
        #expect(try f.run(p1 + ["append"], stdin: Events.lines(11...12)).status == 0)
        #expect(!(try f.run(p1 + ["key", "list"]).stdout.contains("damaged")))
    }

    @Test("key rotate seals what is written after it under a new epoch in every slot; key list shows the slots' and the segments' epochs; every secret still reads all")
    func rotateThenList() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        let p1 = ["--passphrase-file", f.file("p1")]
        #expect(try f.run(p1 + ["key", "add", "--new-key-file", f.file("k1")]).status == 0)
        #expect(try f.run(p1 + ["append"], stdin: Events.lines(1...50)).status == 0)
        let rotated = try f.run(["--key-file", f.file("k1"), "key", "rotate"])
        #expect(rotated.status == 0 && rotated.stdout == "1\n", "\(rotated.stderr)")
        #expect(try f.run(p1 + ["append"], stdin: Events.lines(51...80)).status == 0)
        #expect(try f.run(p1 + ["key", "rotate"]).stdout == "2\n")
        #expect(try f.run(["--key-file", f.file("k1"), "append"], stdin: Events.lines(81...90)).status == 0)
        let listed = try f.list().split(separator: "\n").map(String.init)
        #expect(listed[1].hasSuffix("  0,1,2") && listed[2].hasSuffix("  0,1,2"), "\(listed)")
        #expect(listed[3] == "current epoch: 2 (as the slot files say; give the store's secret to check them)")
        #expect(try f.run(p1 + ["key", "list"]).stdout.split(separator: "\n")[3] == "current epoch: 2")
        #expect(listed[4] == "segments sealed under: epoch 0 (1 batch), epoch 1 (1 batch), epoch 2 (1 batch)", "\(listed)")
        #expect(listed[5].hasPrefix("ciphers: epoch 0 ") && listed[5].contains(", epoch 2 "), "\(listed)")
        for secret in [p1, ["--key-file", f.file("k1")]] {
            let replay = try f.run(secret + ["replay", "--raw"])
            #expect(replay.status == 0 && replay.stdout.split(separator: "\n").count == 90, "\(replay.stderr)")
        }
        // A slot added after the rotations holds every epoch, and reads everything.
        #expect(try f.run(["--key-file", f.file("k1"), "key", "add", "--new-key-file", f.file("k2")]).stdout == "3\n")
        #expect(try f.list().split(separator: "\n")[3].hasSuffix("  0,1,2"))
        #expect(try f.run(["--key-file", f.file("k2"), "replay", "--raw"]).stdout.split(separator: "\n").count == 90)
        #expect(try f.run(["--key-file", f.file("k2"), "verify"]).status == 0)
    }

    @Test("A kill at the slot-change fault points leaves the old slots or the new ones, and the store opens")
    func killAtFaultPoints() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).status == 0)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-passphrase-file", f.file("p2")], tool: HealthLogBinary.faultTool).status == 0)
        // Killed after the first and the second of three slots received the new epoch.
        for occurrence in [1, 2] {
            let killed = try f.run(["--key-file", f.file("k1"), "key", "rotate"], environment: ["HEALTHLOG_TEST_FAULT": "kill:slot-written:\(occurrence)"], tool: HealthLogBinary.faultTool)
            #expect(killed.wasSignalled)
            let listed = try f.list(["--key-file", f.file("k1")])
            #expect(listed.contains("\ncurrent epoch: 0\n"), "a part-way rotation is not current: \(listed)")
            for secret in [["--passphrase-file", f.file("p1")], ["--key-file", f.file("k1")], ["--passphrase-file", f.file("p2")]] {
                #expect(try f.opens(secret), "\(secret)")
            }
        }
        let rotated = try f.run(["--key-file", f.file("k1"), "key", "rotate"])
        #expect(rotated.status == 0 && rotated.stdout == "3\n", "a later rotation takes a fresh epoch: \(rotated.stdout)")
        #expect(try f.list(["--key-file", f.file("k1")]).contains("\ncurrent epoch: 3\n"))
        let removing = try f.run(["--key-file", f.file("k1"), "key", "remove", "3"], environment: ["HEALTHLOG_TEST_FAULT": "kill:slot-removed"], tool: HealthLogBinary.faultTool)
        #expect(removing.wasSignalled)
        #expect(try f.opens(["--key-file", f.file("k1")]) && f.opens(["--passphrase-file", f.file("p1")]))
        let adding = try f.run(["--key-file", f.file("k1"), "key", "add", "--new-key-file", f.file("k2")], environment: ["HEALTHLOG_TEST_FAULT": "kill:slot-written"], tool: HealthLogBinary.faultTool)
        #expect(adding.wasSignalled)
        #expect(try f.opens(["--key-file", f.file("k2")]))
    }

    @Test("key add, key remove and key rotate SIGKILLed at random moments leave a store that the old secret, and the new one once acknowledged, opens", arguments: ["add", "remove", "rotate"])
    func randomKills(action: String) throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        var random = SeededRandom(state: 41)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).status == 0)
        for round in 0..<20 {
            let arguments: [String]
            switch action {
            case "add": arguments = ["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k2")]
            case "remove":
                let ids = try FileManager.default.contentsOfDirectory(atPath: f.store + "/keys").filter { $0.hasSuffix(".slot") }.sorted()
                if ids.count < 3 { #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k2")]).status == 0) }
                let last = try FileManager.default.contentsOfDirectory(atPath: f.store + "/keys").filter { $0.hasSuffix(".slot") }.sorted().last!
                arguments = ["--passphrase-file", f.file("p1"), "key", "remove", String(Int(last.prefix(4))!)]
            default: arguments = ["--key-file", f.file("k1"), "key", "rotate"]
            }
            let process = HealthLogBinary.faultTool.process(["--store", f.store] + arguments, environment: Self.weak)
            let acknowledged = try ChildProcess.runKilled(process, after: random.int(0...25))
            try #require(process.terminationReason == .uncaughtSignal || acknowledged, "round \(round): exit \(process.terminationStatus)")
            try #require(try f.opens(["--passphrase-file", f.file("p1")]), "round \(round): the old passphrase no longer opens")
            try #require(try f.opens(["--key-file", f.file("k1")]), "round \(round): the old key file no longer opens")
            if action == "add", acknowledged { try #require(try f.opens(["--key-file", f.file("k2")]), "round \(round)") }
            let listed = try f.run(["key", "list"])
            try #require(listed.status == 0 && !listed.stdout.contains("damaged"), "round \(round): \(listed.stdout)")
        }
    }

    @Test("init --encrypt SIGKILLed at random moments leaves no store or a complete one that the secret opens")
    func initKilled() throws {
        let f = try Fixture(creatingStore: false)
        defer { f.dir.remove() }
        var random = SeededRandom(state: 17)
        for round in 0..<12 {
            let store = f.file("store-\(round)")
            let process = HealthLogBinary.faultTool.process(["--store", store, "--passphrase-file", f.file("p1"), "init", "--encrypt"], environment: Self.weak)
            _ = try ChildProcess.runKilled(process, after: random.int(0...25))
            if !FileManager.default.fileExists(atPath: store) {
                try #require(process.terminationReason == .uncaughtSignal, "round \(round): init exited without a store")
                // Made again, it removes what the killed one left beside it.
                let again = try HealthLogBinary.faultTool.run(["--store", store, "--passphrase-file", f.file("p1"), "init", "--encrypt"], environment: Self.weak)
                try #require(again.status == 0, "round \(round): \(again.stderr)")
            }
            let replay = try HealthLogBinary.run(["--store", store, "--passphrase-file", f.file("p1"), "replay"])
            try #require(replay.status == 0, "round \(round): a store that does not open: \(replay.stderr)")
            // A directory killed after it was unmarked, just before its rename, is kept (a store
            // is never removed); a marked one is removed.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter {
                $0.hasPrefix("store-\(round).init-") && FileManager.default.fileExists(atPath: f.file($0 + "/.healthlog-scratch"))
            }
            try #require(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
    }

    @Test("A truncated slot file, or another slot's file put in its place, does not open; the other slots do, and key list says what is wrong")
    func damagedSlots() throws {
        let f = try Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).status == 0)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k2")]).status == 0)
        let slot2 = f.store + "/keys/0002.slot"
        let original = try ByteSurgery.read(slot2)
        try ByteSurgery.truncate(slot2, to: original.count - 30)
        let truncated = try f.run(["--key-file", f.file("k1"), "key", "rotate"])
        #expect(truncated.status == 4 && truncated.stderr.contains("key slot 0002 is damaged: not a valid key slot file"), "\(truncated.stderr)")
        #expect(try f.list().contains("\n2     damaged: not a valid key slot file"))
        #expect(try f.opens(["--passphrase-file", f.file("p1")]) && f.opens(["--key-file", f.file("k2")]))
        let refused = try f.run(["--passphrase-file", f.file("p1"), "key", "rotate"])
        #expect(refused.status == 1 && refused.stderr.contains("remove it with 'healthlog key remove 2' first"), "\(refused.stderr)")

        try FileManager.default.removeItem(atPath: slot2)
        try FileManager.default.copyItem(atPath: f.store + "/keys/0003.slot", toPath: slot2)
        let swapped = try f.run(["--key-file", f.file("k1"), "key", "rotate"])
        #expect(swapped.status == 4 && swapped.stderr.contains("key slot 0002 is damaged: holds slot 0003's content"), "\(swapped.stderr)")
        #expect(try f.opens(["--key-file", f.file("k2")]) && f.opens(["--passphrase-file", f.file("p1")]))
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "remove", "2"]).status == 0)
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "rotate"]).status == 0)
    }

    @Test(
        "unlock keeps the keys so commands need no secret; lock drops them",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/keys"), "no kernel keyring (/proc/keys) on this system"))
    func unlockLock() throws {
        let f = try Fixture()
        defer {
            _ = try? f.run(["lock"])
            f.dir.remove()
        }
        let unlocked = try f.run(["--passphrase-file", f.file("p1"), "unlock", "--for", "2m"])
        if unlocked.status == 1, unlocked.stderr.contains("no kernel keyring is available") { return }
        #expect(unlocked.status == 0 && unlocked.stdout.isEmpty, "\(unlocked.stderr)")
        #expect(unlocked.stderr.contains("unlocked \(f.store) for 2 minutes"))
        #expect(try f.run(["key", "add", "--new-key-file", f.file("k1")]).stdout == "2\n")
        #expect(try f.run(["append"], stdin: Events.lines(1...10)).status == 0)
        #expect(try f.run(["replay", "--raw"]).stdout.split(separator: "\n").count == 10)
        // A rotation updates the keys held, so the store stays unlocked after it.
        #expect(try f.run(["key", "rotate"]).stdout == "1\n")
        #expect(try f.run(["key", "add", "--new-key-file", f.file("k2")]).status == 0)
        let locked = try f.run(["lock"])
        #expect(locked.status == 0 && locked.stderr.contains("locked \(f.store)"))
        #expect(try f.run(["key", "rotate"]).status == 4)
        #expect(try f.run(["replay"]).status == 4)
        #expect(try f.run(["lock"]).stderr.contains("was not unlocked"))
        #expect(try f.run(["--passphrase-file", f.file("p1"), "unlock", "--for", "8x"]).status == 2)
        #expect(try HealthLogBinary.run(["--store", f.file("nothing"), "lock"]).status == 1)
    }
}
