import Foundation
import Testing
@testable import MediaIO

@Suite("EXIF TIFF writer and reader")
struct ExifTIFFTests {
    private func short(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private func long(_ bytes: [UInt8], _ at: Int) -> Int { short(bytes, at) | short(bytes, at + 2) << 16 }

    @Test("little-endian header, sorted entries, even value offsets, a pointer to the Exif IFD")
    func laysOutTIFF() throws {
        let tiff = ExifMetadataTests.full.tiffBytes
        #expect(Array(tiff.prefix(8)) == [0x49, 0x49, 42, 0, 8, 0, 0, 0])
        var exifOffset = 0
        for directory in [8, nil] as [Int?] {
            let start = directory ?? exifOffset
            let count = short(tiff, start)
            var previous = -1
            for index in 0..<count {
                let entry = start + 2 + 12 * index
                let tag = short(tiff, entry)
                #expect(tag > previous, "entries sorted by tag")
                previous = tag
                let type = short(tiff, entry + 2)
                let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1][type] ?? 0
                let length = unit * long(tiff, entry + 4)
                if length > 4 {
                    let offset = long(tiff, entry + 8)
                    #expect(offset % 2 == 0 && offset + length <= tiff.count, "tag \(tag) value inside, word aligned")
                }
                if tag == 0x8769 { exifOffset = long(tiff, entry + 8) }
            }
            #expect(long(tiff, start + 2 + 12 * count) == 0, "no next IFD")
        }
        #expect(exifOffset > 8 && exifOffset % 2 == 0)
    }

    @Test("a big-endian ('MM') TIFF from another camera reads too")
    func readsBigEndian() throws {
        // IFD0: Make "Acme" (5 bytes, out of line) and Orientation 8; no Exif IFD.
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0, 42, 0, 0, 0, 8,
            0, 2,
            0x01, 0x0F, 0, 2, 0, 0, 0, 5, 0, 0, 0, 38,
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0,
            0, 0, 0, 0,
        ] + Array("Acme".utf8) + [0]
        let metadata = try #require(ExifMetadata(tiff: tiff))
        #expect(metadata.make == "Acme")
        #expect(metadata.orientation == .left)
        #expect(metadata.exposureTime == nil && metadata.software == nil)
    }

    @Test("not TIFF at all reads as nil")
    func rejectsNonTIFF() {
        #expect(ExifMetadata(tiff: []) == nil)
        #expect(ExifMetadata(tiff: Array("hello, world".utf8)) == nil)
        #expect(ExifMetadata(tiff: [0x49, 0x49, 43, 0, 8, 0, 0, 0]) == nil)
    }

    @Test("truncated and corrupted TIFF never crashes the reader")
    func survivesDamage() {
        let tiff = ExifMetadataTests.full.tiffBytes
        for length in 0..<tiff.count {
            _ = ExifMetadata(tiff: Array(tiff.prefix(length)))
        }
        // A fixed-seed generator so a failure reproduces.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for _ in 0..<2000 {
            var damaged = tiff
            for _ in 0..<1 + next() % 8 {
                damaged[8 + next() % (tiff.count - 8)] = UInt8(truncatingIfNeeded: next())
            }
            _ = ExifMetadata(tiff: damaged)
        }
    }

    @Test("non-ASCII characters become '?' so the count stays right")
    func replacesNonASCII() {
        let read = ExifMetadata(tiff: ExifMetadata(make: "Café\u{0}", model: "日本").tiffBytes)
        #expect(read?.make == "Caf?")
        #expect(read?.model == "??")
    }
}
