import Foundation
import Testing
import TestSupport
@testable import CaptureCore
@testable import MediaIO

/// A test card of eight flat tiles (4 across, 2 down; 160x240 each at 640x480), written
/// into any of the five formats with BT.709 Y'CbCr computed here, independently of ImageOps.
/// With `grain`, a fixed pseudo-random texture of up to 6 codes makes it compress like a photo.
private struct TestCard {
    static let colours: [(r: Double, g: Double, b: Double)] = [
        (200, 40, 40), (40, 180, 60), (50, 70, 200), (128, 128, 128),
        (230, 210, 60), (60, 200, 210), (235, 235, 235), (25, 25, 25),
    ]
    static let tileWidth = 160
    static let tileHeight = 240

    /// BT.709 Y'CbCr of an RGB colour, full range or video range.
    static func ycbcr(_ c: (r: Double, g: Double, b: Double), fullRange: Bool) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b
        let cb = (c.b - y) / 1.8556
        let cr = (c.r - y) / 1.5748
        if fullRange { return (quantise(y), quantise(128 + cb), quantise(128 + cr)) }
        return (quantise(16 + y * 219 / 255), quantise(128 + cb * 224 / 255), quantise(128 + cr * 224 / 255))
    }

    static func quantise(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }

    /// Rows of grain before its pattern repeats: a prime, so no 8x8 block of the coder
    /// lines up with the repetition.
    static let grainPeriod = 61

    /// The card in `format`: the eight tiles in two rows of four, each flat, or with grain
    /// that repeats every `grainPeriod` rows. Every tile and grain shade is converted once and
    /// each distinct row is worked out once and then copied, so even a full-resolution card
    /// is quick to make in an unoptimised test build.
    static func make(_ format: PixelFormat, width: Int = 640, height: Int = 480, grain: Bool = false) -> CVPixelBuffer {
        let buffer = CVBuffer(format: format, width: width, height: height)
        func row(_ plane: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
            (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self)
        }
        // Grain adds the same n in -6...6 to R, G and B: shade n + 6 of a tile (6 without grain).
        let shadeCount = 13
        let columnTile = (0..<width).map { $0 * 4 / width }
        let columnHash = (0..<width).map { $0 &* 7919 }
        func shade(_ x: Int, _ y: Int) -> Int {
            let tile = (y * 2 / height) * 4 + columnTile[x]
            return tile * shadeCount + (grain ? ((columnHash[x] ^ ((y % grainPeriod) &* 104_729)) & 0xFFFF) % shadeCount : 6)
        }
        /// Fills `rows` rows of `planes` with `draw` (given the card row the samples come
        /// from), drawing each distinct row once: rows alike in tile band and grain are copies.
        func fill(_ planes: [Int], rows: Int, cardRow: (Int) -> Int, _ draw: (Int, Int) -> Void) {
            var drawn: [Int: Int] = [:]
            for y in 0..<rows {
                let source = cardRow(y)
                let key = (source * 2 / height) * grainPeriod + (grain ? source % grainPeriod : 0)
                if let earlier = drawn[key] {
                    for plane in planes { row(plane, y).update(from: row(plane, earlier), count: buffer.bytesPerRow(plane)) }
                } else {
                    draw(y, source)
                    drawn[key] = y
                }
            }
        }
        var shades: [(r: Double, g: Double, b: Double)] = []
        for c in colours {
            for n in 0..<shadeCount {
                let offset = Double(n - 6)
                shades.append((c.r + offset, c.g + offset, c.b + offset))
            }
        }
        if format == .bgra {
            let pixels = shades.map { c -> UInt32 in
                let b = UInt32(quantise(c.b)), g = UInt32(quantise(c.g)), r = UInt32(quantise(c.r))
                return b | g << 8 | r << 16 | 0xFF00_0000
            }
            fill([0], rows: height, cardRow: { $0 }) { y, _ in
                let line = UnsafeMutableRawPointer(row(0, y)).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { line[x] = pixels[shade(x, y)].littleEndian }
            }
            return buffer
        }
        let samples = shades.map { ycbcr($0, fullRange: format.isFullRange) }
        fill([0], rows: height, cardRow: { $0 }) { y, _ in
            let line = row(0, y)
            for x in 0..<width { line[x] = samples[shade(x, y)].y }
        }
        fill(Array(1..<format.planeCount), rows: (height + 1) / 2, cardRow: { 2 * $0 }) { y, source in
            for x in 0..<(width + 1) / 2 {
                let sample = samples[shade(2 * x, source)]
                if format.planeCount == 2 {
                    row(1, y)[2 * x] = sample.cb
                    row(1, y)[2 * x + 1] = sample.cr
                } else {
                    row(1, y)[x] = sample.cb
                    row(2, y)[x] = sample.cr
                }
            }
        }
        return buffer
    }

    /// Mean BGRA of the middle half of tile `index` in a decoded image.
    static func mean(of image: CVPixelBuffer, tile index: Int) -> (r: Double, g: Double, b: Double) {
        let left = (index % 4) * tileWidth + tileWidth / 4
        let top = (index / 4) * tileHeight + tileHeight / 4
        var sum = (r: 0.0, g: 0.0, b: 0.0)
        for y in top..<top + tileHeight / 2 {
            let row = (image.planeAddress(0) + y * image.bytesPerRow(0)).assumingMemoryBound(to: UInt8.self)
            for x in left..<left + tileWidth / 2 {
                sum.b += Double(row[4 * x])
                sum.g += Double(row[4 * x + 1])
                sum.r += Double(row[4 * x + 2])
            }
        }
        let count = Double(tileWidth / 2 * tileHeight / 2)
        return (sum.r / count, sum.g / count, sum.b / count)
    }
}

/// The metadata of a typical shot, as a phone's back camera would report it.
let sampleExif = ExifMetadata(
    make: "OpenCapture", model: "Simulated Back Camera", orientation: .right,
    dateTimeOriginal: Date(timeIntervalSince1970: 1_715_954_589), timeZoneOffset: 2 * 3600,
    exposureTime: 1.0 / 120, fNumber: 1.8, isoSpeed: 100, focalLength: 4.2, focalLengthIn35mmFilm: 26,
    whiteBalance: .auto, flash: ExifFlash(fired: false, mode: .off), exposureProgram: .normal, exposureMode: .auto)

@Suite("JPEG encoder")
struct JPEGEncoderTests {
    static let formats: [PixelFormat] = [.bgra, .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange, .yuv420PlanarFullRange, .yuv420PlanarVideoRange]

    @Test("flat colours survive encode and decode within 3 codes", arguments: formats)
    func roundTripsColours(format: PixelFormat) throws {
        let data = try JPEGEncoder.encode(TestCard.make(format), quality: 90, exif: sampleExif)
        let image = try JPEGEncoder.decode(data)
        #expect(image.format == .bgra && image.width == 640 && image.height == 480)
        for (index, expected) in TestCard.colours.enumerated() {
            let got = TestCard.mean(of: image, tile: index)
            let error = max(abs(got.r - expected.r), abs(got.g - expected.g), abs(got.b - expected.b))
            #expect(error <= 3, "\(format.fourCC) tile \(index): expected \(expected), decoded \(got)")
        }
    }

    @Test("the file opens with SOI and an APP1 Exif segment, in place of JFIF")
    func placesExifFirst() throws {
        let data = try JPEGEncoder.encode(TestCard.make(.yuv420BiPlanarVideoRange), exif: sampleExif)
        #expect(Array(data.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
        #expect(Array(data[6..<12]) == Array("Exif".utf8) + [0, 0])
        #expect(data.range(of: Data("JFIF".utf8)) == nil)
        #expect(Array(data.suffix(2)) == [0xFF, 0xD9])
    }

    @Test("without EXIF the file is TurboJPEG's own, JFIF and all")
    func encodesWithoutExif() throws {
        let data = try JPEGEncoder.encode(TestCard.make(.bgra), exif: nil)
        #expect(Array(data.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(ExifMetadata(jpeg: data) == nil)
        #expect(try JPEGEncoder.decode(data).width == 640)
    }

    @Test("our reader gets back every field, with the image's pixel dimensions")
    func readsBackExif() throws {
        let data = try JPEGEncoder.encode(TestCard.make(.yuv420PlanarFullRange), exif: sampleExif)
        var expected = sampleExif
        expected.pixelWidth = 640
        expected.pixelHeight = 480
        #expect(ExifMetadata(jpeg: data) == expected)
    }

    @Test("exiftool reads the EXIF", .enabled(if: ExifTool.isInstalled))
    func exiftoolReadsExif() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try JPEGEncoder.encode(TestCard.make(.yuv420BiPlanarVideoRange), exif: sampleExif).write(to: url)
        // -validate checks the EXIF structure; asking for it alone would hide every other tag.
        let tags = try ExifTool.tags(url.path, ["-validate", "-warning", "-all:all"])
        #expect(tags["Make"] as? String == "OpenCapture")
        #expect(tags["Model"] as? String == "Simulated Back Camera")
        #expect(tags["Software"] as? String == "OpenCapture")
        #expect(tags["ExposureTime"] as? String == "1/120")
        #expect(tags["FNumber"] as? Double == 1.8)
        #expect(tags["ISO"] as? Int == 100)
        #expect(tags["FocalLength"] as? String == "4.2 mm")
        #expect(tags["FocalLengthIn35mmFormat"] as? String == "26 mm")
        #expect(tags["Orientation"] as? String == "Rotate 90 CW")
        #expect(tags["WhiteBalance"] as? String == "Auto")
        #expect(tags["Flash"] as? String == "Off, Did not fire")
        #expect(tags["ExposureProgram"] as? String == "Program AE")
        #expect(tags["ExposureMode"] as? String == "Auto")
        #expect(tags["DateTimeOriginal"] as? String == "2024:05:17 16:03:09")
        #expect(tags["OffsetTimeOriginal"] as? String == "+02:00")
        #expect(tags["ColorSpace"] as? String == "sRGB")
        #expect(tags["ExifImageWidth"] as? Int == 640)
        #expect(tags["ExifImageHeight"] as? Int == 480)
        #expect(tags["ImageWidth"] as? Int == 640)
        #expect(tags["ExifByteOrder"] as? String == "Little-endian (Intel, II)")
        #expect(tags["Validate"] as? String == "OK")
        #expect(tags["Warning"] == nil)
    }

    @Test("odd sizes encode from NV12 and decode at the same size")
    func encodesOddSizes() throws {
        let data = try JPEGEncoder.encode(TestCard.make(.yuv420BiPlanarVideoRange, width: 641, height: 479), exif: sampleExif)
        let image = try JPEGEncoder.decode(data)
        #expect(image.width == 641 && image.height == 479)
        #expect(ExifMetadata(jpeg: data)?.pixelWidth == 641)
    }

    @Test("a BT.601-tagged buffer is taken as BT.601")
    func honoursMatrixAttachment() throws {
        // Grey has the same samples in both matrices; a saturated colour does not.
        let colour = (r: 200.0, g: 40.0, b: 40.0)
        let y = 0.299 * colour.r + 0.587 * colour.g + 0.114 * colour.b
        let buffer = CVBuffer(format: .yuv420PlanarFullRange, width: 64, height: 64)
        buffer.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] = kCVImageBufferYCbCrMatrix_ITU_R_601_4 }
        let samples = [y, 128 + (colour.b - y) / 1.772, 128 + (colour.r - y) / 1.402].map { UInt8($0.rounded()) }
        for plane in 0..<3 {
            let rows = buffer.planes[plane].height
            buffer.planeAddress(plane).initializeMemory(as: UInt8.self, repeating: samples[plane], count: rows * buffer.bytesPerRow(plane))
        }
        let image = try JPEGEncoder.decode(JPEGEncoder.encode(buffer, exif: nil))
        let pixel = (image.planeAddress(0) + 32 * image.bytesPerRow(0) + 32 * 4).assumingMemoryBound(to: UInt8.self)
        #expect(abs(Int(pixel[2]) - 200) <= 3 && abs(Int(pixel[1]) - 40) <= 3 && abs(Int(pixel[0]) - 40) <= 3)
    }

    @Test("quality trades size: 50 is smaller than 95")
    func qualityChangesSize() throws {
        let buffer = TestCard.make(.bgra)
        #expect(try JPEGEncoder.encode(buffer, quality: 50, exif: nil).count < JPEGEncoder.encode(buffer, quality: 95, exif: nil).count)
    }

    @Test("decoding something that is not a JPEG throws")
    func rejectsGarbage() {
        #expect(throws: JPEGError.self) { try JPEGEncoder.decode(Data("not a jpeg at all".utf8)) }
        #expect(throws: JPEGError.self) { try JPEGEncoder.decode(Data()) }
    }

    @Test("a truncated JPEG throws instead of decoding grey where data is missing")
    func rejectsTruncated() throws {
        let data = try JPEGEncoder.encode(TestCard.make(.bgra, grain: true), exif: nil)
        #expect(try JPEGEncoder.decode(data).width == 640)
        #expect(throws: JPEGError.self) { try JPEGEncoder.decode(data.prefix(data.count * 2 / 3)) }
    }

    @Test("a full-resolution 4032x3024 grainy picture encodes and decodes back at full size", arguments: [PixelFormat.bgra, .yuv420BiPlanarVideoRange, .yuv420PlanarFullRange])
    func encodesFullResolution(format: PixelFormat) throws {
        // The test card scaled up, with grain so the entropy coder has a photo's work to do.
        let buffer = TestCard.make(format, width: 4032, height: 3024, grain: true)
        let data = try JPEGEncoder.encode(buffer, exif: sampleExif)
        #expect(data.count > 200_000, "grain makes a photo-sized file")
        let decoded = try JPEGEncoder.decode(data)
        #expect(decoded.width == 4032 && decoded.height == 3024)
        #expect(ExifMetadata(jpeg: data)?.pixelWidth == 4032)
    }
}
