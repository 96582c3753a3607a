import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import MediaIO

/// Scene pictures made to hurt: headers claiming sizes the data cannot back, truncated
/// files, pictures far larger than any frame, 16-bit and transparent PNGs. Each is written
/// here, byte by byte or with the JPEG encoder.
@Suite("Picture decoder (hostile and unusual files)")
struct PictureDecoderHostileTests {
    /// A `width`×`height` BGRA JPEG of one colour, or of noise (which compresses badly).
    private func jpeg(width: Int, height: Int, noise: Bool = false, rgb: (UInt8, UInt8, UInt8) = (90, 140, 200)) throws -> Data {
        let buffer = CVBuffer(format: .bgra, width: width, height: height)
        var state: UInt32 = 12345
        for y in 0..<height {
            let row = (buffer.planeAddress(0) + y * buffer.bytesPerRow(0)).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let n = UInt8(truncatingIfNeeded: state >> 24)
                row[4 * x] = noise ? n : rgb.2
                row[4 * x + 1] = noise ? n &+ 85 : rgb.1
                row[4 * x + 2] = noise ? n &+ 170 : rgb.0
                row[4 * x + 3] = 255
            }
        }
        return try JPEGEncoder.encode(buffer, quality: 90, exif: nil)
    }

    /// The offset of the first SOF0 marker's payload.
    private func frameHeader(_ data: [UInt8]) -> Int? {
        (2..<(data.count - 1)).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }.map { $0 + 4 }
    }

    private func message(_ body: () throws -> PictureDecoder.Picture) -> String {
        do {
            let picture = try body()
            return "decoded \(picture.width)x\(picture.height)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aTinyJPEGClaimingSixteenThousandSquareIsRefusedBeforeDecoding() throws {
        var bytes = [UInt8](try jpeg(width: 16, height: 16))
        let sof = try #require(frameHeader(bytes))
        bytes[sof + 1] = 0x40  // height 16384
        bytes[sof + 2] = 0x00
        bytes[sof + 3] = 0x40  // width 16384
        bytes[sof + 4] = 0x00
        #expect(bytes.count < 1000)
        let text = message { try PictureDecoder.decode(Data(bytes)) }
        #expect(text.contains("claims 16384x16384") && text.contains("cannot hold"), "\(text)")
    }

    @Test func aTruncatedJPEGIsAnErrorNotGreyRows() throws {
        let whole = try jpeg(width: 256, height: 256, noise: true)
        #expect(try PictureDecoder.decode(whole).width == 256)
        let text = message { try PictureDecoder.decode(whole.prefix(whole.count / 2)) }
        #expect(text.contains("truncated or corrupt JPEG") && text.contains("Premature end"), "\(text)")
    }

    @Test func aLargeJPEGIsDecodedScaledDownToTheBound() throws {
        let data = try jpeg(width: 1600, height: 1200)
        // 1/4 scale hits 400x300 exactly; 500 wide needs 3/8 (600x450), then averaging down.
        for (limit, expected) in [((400, 300), (400, 300)), ((500, 300), (500, 300)), ((4032, 3024), (1600, 1200))] {
            let picture = try PictureDecoder.decode(data, fitting: PictureDecoder.Size(width: limit.0, height: limit.1))
            #expect(picture.width == expected.0 && picture.height == expected.1)
            let centre = 3 * (picture.height / 2 * picture.width + picture.width / 2)
            let rgb = picture.rgb[centre..<(centre + 3)].map(Int.init)
            #expect(abs(rgb[0] - 90) <= 4 && abs(rgb[1] - 140) <= 4 && abs(rgb[2] - 200) <= 4, "\(limit): \(rgb)")
        }
    }

    /// The issue's bomb, at half its height: a flat 8192x4096 PNG of about 100 KB (deflate
    /// at its best) that inflates to 100 MB. It comes out at the bound, read row by row.
    @Test func aFlatPNGThatInflatesToHundredsOfMegabytesComesOutAtTheBound() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flat-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        let ffmpeg = try ChildProcess.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0x806040:s=8192x4096", "-frames:v", "1", "-pix_fmt", "rgb24", "-y", file.path])
        try #require(ffmpeg.status == 0)
        let data = try Data(contentsOf: file)
        #expect(data.count < 200_000)
        let picture = try PictureDecoder.decode(data)
        #expect(picture.width == 4032 && picture.height == 3024)
        // ffmpeg's colour source goes through Y'CbCr: 0x806040 is stored as 127, 95, 63.
        #expect(Array(picture.rgb.prefix(3)) == [127, 95, 63] && Array(picture.rgb.suffix(3)) == [127, 95, 63])
    }

    @Test func scalingPicksTheSmallestFactorThatCoversTheBound() {
        let source = PictureDecoder.Size(width: 16384, height: 16384)
        #expect(PictureDecoder.scaledSize(source, covering: PictureDecoder.Size(width: 4032, height: 3024)) == PictureDecoder.Size(width: 4096, height: 4096))
        #expect(PictureDecoder.scaledSize(source, covering: PictureDecoder.Size(width: 2048, height: 2048)) == PictureDecoder.Size(width: 2048, height: 2048))
        #expect(PictureDecoder.scaledSize(source, covering: source) == source)
    }

    @Test func aPNGHeaderClaimingMoreThanItsDataCanHoldIsRefused() {
        var png = TestPNG(width: 4, height: 1, pixel: [1, 2, 3])
        png.claimedSize = (8192, 8192)
        let text = message { try PictureDecoder.decode(png.data) }
        #expect(text.contains("claims 8192x8192") && text.contains("cannot hold"), "\(text)")
    }

    @Test func aTruncatedPNGIsAnError() {
        let data = TestPNG(width: 64, height: 48, pixel: [10, 20, 30]).data
        #expect(message { try PictureDecoder.decode(data) } == "decoded 64x48")
        let text = message { try PictureDecoder.decode(data.prefix(data.count / 2)) }
        #expect(text.contains("bad PNG"), "\(text)")
    }

    @Test func aPNGOverTheSourceLimitIsRefused() {
        var png = TestPNG(width: 4, height: 1, pixel: [1, 2, 3])
        png.claimedSize = (70_000, 70_000)
        let text = message { try PictureDecoder.decode(png.data) }
        #expect(text.contains("too large"), "\(text)")
    }

    /// 16-bit samples with no colour chunk are sRGB-encoded like 8-bit ones: 0x8080 is the
    /// 8-bit 128 (libpng's simplified API took them as linear: 188, 47 % too bright).
    @Test func sixteenBitPNGsFollowTheirTransferCurve() throws {
        let grey: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80]
        func decoded(_ chunks: [(String, [UInt8])]) throws -> [UInt8] {
            let png = TestPNG(width: 8, height: 4, bitDepth: 16, extraChunks: chunks, pixel: grey)
            return Array(try PictureDecoder.decode(png.data).rgb.prefix(3))
        }
        let eightBit = try PictureDecoder.decode(TestPNG(width: 8, height: 4, pixel: [128, 128, 128]).data).rgb
        #expect(Array(eightBit.prefix(3)) == [128, 128, 128])
        #expect(try decoded([]) == [128, 128, 128], "no chunk: sRGB")
        #expect(try decoded([TestPNG.sRGB]) == [128, 128, 128])
        #expect(try decoded([TestPNG.gamma(1 / 2.2)]).allSatisfy { abs(Int($0) - 129) <= 1 }, "gamma 2.2 is close to sRGB")
        // Linear samples: 0.502 of white is sRGB 188.
        #expect(try decoded([TestPNG.gamma(1)]) == [188, 188, 188])
    }

    /// Transparency shows the white paper the picture is printed on, mixed in linear light.
    @Test func alphaIsCoverageOverWhitePaper() throws {
        func decoded(alpha: UInt8) throws -> [UInt8] {
            let png = TestPNG(width: 4, height: 4, colorType: 6, pixel: [255, 0, 0, alpha])
            return Array(try PictureDecoder.decode(png.data).rgb.prefix(3))
        }
        #expect(try decoded(alpha: 255) == [255, 0, 0])
        #expect(try decoded(alpha: 0) == [255, 255, 255])
        // Half covered (128/255): green and blue are 127/255 of the paper's white in linear
        // light, sRGB 187 (mixing the codes instead would give 127).
        #expect(try decoded(alpha: 128) == [255, 187, 187])
        let sixteen = TestPNG(width: 4, height: 4, bitDepth: 16, colorType: 6, pixel: [0xFF, 0xFF, 0, 0, 0, 0, 0, 0])
        #expect(Array(try PictureDecoder.decode(sixteen.data).rgb.prefix(3)) == [255, 255, 255])
    }

    /// Every pixel lands where it belongs, interlaced or not, palette-free 8-bit RGB.
    @Test(arguments: [false, true])
    func pixelsArePlacedExactly(interlaced: Bool) throws {
        var png = TestPNG(width: 37, height: 23, pixel: [0, 0, 0])
        png.interlaced = interlaced
        png.pixelAt = { x, y in [UInt8(x * 5), UInt8(y * 9), 77] }
        let picture = try PictureDecoder.decode(png.data)
        #expect(picture.width == 37 && picture.height == 23)
        let rgb = picture.rgb
        for y in 0..<23 {
            for x in 0..<37 where Array(rgb[(3 * (y * 37 + x))..<(3 * (y * 37 + x) + 3)]) != [UInt8(x * 5), UInt8(y * 9), 77] {
                Issue.record("pixel (\(x), \(y)) is \(Array(rgb[(3 * (y * 37 + x))..<(3 * (y * 37 + x) + 3)]))")
            }
        }
    }

    /// Averaging down a PNG as its rows arrive: the result fits the bound and keeps the
    /// picture's halves where they were.
    @Test func aLargePNGIsAveragedDownRowByRow() throws {
        var png = TestPNG(width: 600, height: 400, pixel: [200, 100, 50])
        let data = png.data
        let picture = try PictureDecoder.decode(data, fitting: PictureDecoder.Size(width: 256, height: 192))
        #expect(picture.width == 256 && picture.height == 192)
        #expect(picture.rgb.count == 3 * 256 * 192)
        #expect(Set(stride(from: 0, to: picture.rgb.count, by: 3).map { picture.rgb[$0] }) == [200])
        png.width = 2
        #expect(try PictureDecoder.decode(png.data, fitting: PictureDecoder.Size(width: 256, height: 192)).width == 2)
    }
}
