import Foundation
import Testing
@testable import CaptureCore
@testable import MediaIO

@Suite("JPEG segments")
struct JPEGSegmentsTests {
    /// SOI, a JFIF APP0, an APP1 "Exif" holding `tiff`, SOS and EOI: the layout of many cameras' files.
    private func file(jfifFirst: Bool, tiff: [UInt8]) -> Data {
        let jfif: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let app1Length = 2 + 6 + tiff.count
        let exif: [UInt8] = [0xFF, 0xE1, UInt8(app1Length >> 8), UInt8(app1Length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
        let scan: [UInt8] = [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9]
        return Data([0xFF, 0xD8] + (jfifFirst ? jfif + exif : exif) + scan)
    }

    @Test("finds the Exif APP1 segment after JFIF APP0, or first")
    func findsExif() {
        let tiff = ExifMetadata(make: "Acme").tiffBytes
        #expect(JPEGSegments.exifPayload(in: file(jfifFirst: true, tiff: tiff)) == tiff)
        #expect(JPEGSegments.exifPayload(in: file(jfifFirst: false, tiff: tiff)) == tiff)
        #expect(ExifMetadata(jpeg: file(jfifFirst: true, tiff: tiff))?.make == "Acme")
    }

    @Test("works on a Data slice that does not start at index 0")
    func readsSlices() {
        let tiff = ExifMetadata(make: "Acme").tiffBytes
        let padded = Data([1, 2, 3]) + file(jfifFirst: true, tiff: tiff)
        #expect(JPEGSegments.exifPayload(in: padded.dropFirst(3)) == tiff)
    }

    @Test("no Exif, truncated segments and non-JPEG data give nil")
    func rejectsMissingExif() {
        let tiff = ExifMetadata().tiffBytes
        let whole = file(jfifFirst: true, tiff: tiff)
        #expect(JPEGSegments.exifPayload(in: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9])) == nil)
        #expect(JPEGSegments.exifPayload(in: Data("GIF89a".utf8)) == nil)
        for length in 0..<24 + tiff.count {
            #expect(JPEGSegments.exifPayload(in: whole.prefix(length)) == nil)
        }
    }

    @Test("inserting EXIF drops a leading JFIF segment and keeps the rest")
    func insertsExif() throws {
        let original = file(jfifFirst: true, tiff: [])  // an empty-payload Exif stands in for other segments
        let tiff = ExifMetadata(model: "Model X").tiffBytes
        let result = try Array(original).withUnsafeBytes { try JPEGSegments.inserting(exifTIFF: tiff, into: $0) }
        #expect(Array(result.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
        #expect(result.range(of: Data("JFIF".utf8)) == nil)
        #expect(result.suffix(original.count - 20) == original.suffix(original.count - 20))
        #expect(ExifMetadata(jpeg: result)?.model == "Model X")
    }

    @Test("an EXIF block over 64 KiB is refused")
    func refusesHugeExif() throws {
        let huge = ExifMetadata(model: String(repeating: "x", count: 70_000))
        let buffer = CVBuffer(format: .bgra, width: 16, height: 16)
        #expect(throws: JPEGError.self) { try JPEGEncoder.encode(buffer, exif: huge) }
    }
}
