import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// Clinical records, audiograms and vision prescriptions: samples of
/// their HealthKit types, the FHIR resource kept as it is, everything else of the element
/// kept whole; a resource the zip lacks is listed and the record imported without it.
@Suite("Apple Health import: clinical records, audiograms, vision prescriptions")
struct ImportClinicalTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-02 08:00:00 +0100"/>
         <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="obs-1" sourceName="Clinic" sourceURL="https://fhir.example.org/Observation/1" fhirVersion="4.0.1" receivedDate="2024-03-01 09:00:00 +0100" resourceFilePath="/clinical-records/obs-1.json"/>
         <ClinicalRecord type="HKClinicalTypeIdentifierAllergyRecord" identifier="al-1" sourceName="Clinic" sourceURL="https://fhir.example.org/AllergyIntolerance/1" fhirVersion="4.0.1" receivedDate="2024-03-01 09:00:00 +0100" resourceFilePath="/clinical-records/al-1.json"/>
         <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi" startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:05:00 +0100">
          <SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="15" leftEarUnit="dBHL" rightEarValue="20" rightEarUnit="dBHL"/>
          <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL" rightEarValue="25" rightEarUnit="dBHL"/>
         </Audiogram>
         <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2023-05-04 00:00:00 +0200" expirationDate="2025-05-04 00:00:00 +0200" brand="Acme"/>
        </HealthData>

        """
    static let fhir = #"{"resourceType":"Observation","id":"1","code":{"text":"Hemoglobin A1c"},"valueQuantity":{"value":5.4,"unit":"%"}}"#

    @Test("Each becomes a sample of its HealthKit type, the FHIR resource and the sensitivity points kept whole; a missing resource is listed")
    func imported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("export.zip")
        try ByteSurgery.write(StoredZip.make([
            ("apple_health_export/export.xml", Array(Self.xml.utf8)), ("apple_health_export/clinical-records/obs-1.json", Array(Self.fhir.utf8)),
        ]), to: path)
        let (report, store) = try ImportTests.importFresh(path, dir)
        #expect(report.unmappedCount == 0)
        for type in ["HKClinicalTypeIdentifierLabResultRecord", "HKClinicalTypeIdentifierAllergyRecord", "HKDataTypeIdentifierAudiogram", "HKVisionPrescriptionTypeIdentifier"] {
            #expect(report.typeCounts[type] == 1, "\(type)")
        }
        #expect(report.clinicalResourcesRead == 1)
        #expect(report.clinicalProblems.map(\.file) == ["/clinical-records/al-1.json"])
        #expect(report.clinicalProblems.first?.reason.hasPrefix("the zip holds no such file") == true)
        let lines = try ImportTests.lines(store)
        func metadata(_ type: String) throws -> [String: Any] {
            try #require(lines.first { $0["type"] as? String == type }?["metadata"] as? [String: Any])
        }
        let lab = try metadata("HKClinicalTypeIdentifierLabResultRecord")
        #expect(lab["HealthLogImport.fhirResource"] as? String == Self.fhir)
        #expect(lab["fhirVersion"] as? String == "4.0.1" && lab["identifier"] as? String == "obs-1")
        #expect(try metadata("HKClinicalTypeIdentifierAllergyRecord")["HealthLogImport.fhirResource"] == nil)
        let points = try #require(try metadata("HKDataTypeIdentifierAudiogram")["HealthLogImport.SensitivityPoint"] as? String)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(points.utf8)) as? [[String: String]])
        #expect(parsed.map { $0["frequencyValue"] } == ["500", "1000"] && parsed[1]["rightEarValue"] == "25")
        let glasses = try metadata("HKVisionPrescriptionTypeIdentifier")
        #expect(glasses["HealthLogImport.type"] as? String == "HKVisionPrescriptionTypeGlasses" && glasses["brand"] as? String == "Acme")
        #expect(glasses["expirationDate"] as? String == "2025-05-04 00:00:00 +0200")
        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == report.summary.added)
    }
}
