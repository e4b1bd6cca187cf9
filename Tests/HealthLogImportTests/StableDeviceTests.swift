import Testing

@testable import HealthLogImport

/// ``ExportMapper/stableDevice(_:)``: the device text without its memory address, found by
/// its UTF-8 bytes when it can be and by `Character` otherwise, with the same result.
@Suite("Import: the device text without its address")
struct StableDeviceTests {
    /// The rule by `Character` alone, as it was before the bytes' shortcut.
    static func byCharacter(_ text: String) -> String {
        guard text.hasPrefix("<<HKDevice: 0x"), let close = text.firstIndex(of: ">") else { return text }
        return "<<HKDevice" + text[close...]
    }

    @Test("The address goes; a > joined to a neighbour by a grapheme cluster is passed over as the Character search passes it; other texts stay")
    func stable() {
        let cases = [
            "<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>",
            "<<HKDevice: 0x1>",
            "<<HKDevice: 0x1>\u{0338}, name:Jane’s>",
            "<<HKDevice: 0x\u{0600}>, name:A>",
            "<<HKDevice: 0x12 no close",
            "<<HKDevice: 0x>é",
            "<<HKDevice 0x1>, name:A>",
            "Jane’s iPhone",
            "",
        ]
        for text in cases { #expect(ExportMapper.stableDevice(text) == Self.byCharacter(text), "\(text)") }
        #expect(ExportMapper.stableDevice(cases[0]) == "<<HKDevice>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>")
        #expect(ExportMapper.stableDevice(cases[2]) == "<<HKDevice>")
        #expect(ExportMapper.stableDevice(cases[3]) == "<<HKDevice>")
    }

    @Test("Given the last record's device, the text is what it is without one, whichever last it was given")
    func lastDevice() {
        let texts = [
            "<<HKDevice: 0x3012772a0>, name:Apple Watch, software:10.2>",
            "<<HKDevice: 0xa78e51061>, name:Apple Watch, software:10.2>",
            "<<HKDevice: 0xa78e51061>, name:Apple Watch, software:10.3>",
            "<<HKDevice: 0x1>\u{0338}, name:Apple Watch, software:10.2>",
            "<<HKDevice: 0x\u{0600}>, name:Apple Watch, software:10.2>",
            "<<HKDevice: 0x1>",
            "<<HKDevice: 0x12 no close",
            "<<HKDevice 0x1>, name:Apple Watch, software:10.2>",
            "Jane’s iPhone",
            "",
        ]
        let lasts: [String?] = [nil, "<<HKDevice>, name:Apple Watch, software:10.2>", "<<HKDevice>", "<<HKDevicX>, name:Apple Watch, software:10.2>", "", "<<HKD"]
            + texts.map { ExportMapper.stableDevice($0) }
        for text in texts {
            for last in lasts {
                #expect(ExportMapper.stableDevice(text, last: last) == ExportMapper.stableDevice(text), "\(text) after \(last ?? "nil")")
            }
        }
    }
}
