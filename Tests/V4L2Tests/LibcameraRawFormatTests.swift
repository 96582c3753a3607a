import CLibcameraRuntime
import CaptureCore
import ColorScience
import Foundation
import MediaIO
import Testing
import TestSupport

@testable import LibcameraCamera

/// libcamera's raw formats as raw photos: which FourCCs are Bayer and in which layout, how
/// each packing unpacks, and that a DNG of each layout develops (LibRaw, through rawpy) into
/// the colours the mosaic holds.
@Suite("libcamera raw formats: layouts, unpacking and the DNG's colours")
struct LibcameraRawFormatTests {
    private func format(_ code: String, packed: Bool = false, width: Int = 8, height: Int = 2) -> LibcameraRawFormat? {
        LibcameraRawFormat(
            fourcc: LibcameraRawFormat.fourcc(code), modifier: packed ? LibcameraRawFormat.csi2Packed : 0, width: width, height: height)
    }

    @Test func fourccsNameTheirLayoutsAndDepths() throws {
        let grbg10 = try #require(format("BA10"))
        #expect(grbg10.pattern == "GRBG" && grbg10.bits == 10 && grbg10.whiteLevel == 1023)
        #expect(grbg10.pixelFormat == kCVPixelFormatType_14Bayer_GRBG)
        #expect(format("BA81")?.pattern == "BGGR" && format("BA81")?.bits == 8)
        #expect(format("BYR2")?.pattern == "BGGR" && format("BYR2")?.bits == 16)
        #expect(format("RGB6")?.pattern == "RGGB" && format("RGB6")?.pixelFormat == kCVPixelFormatType_14Bayer_RGGB)
        #expect(format("GB12")?.pixelFormat == kCVPixelFormatType_14Bayer_GBRG)
        #expect(format("BG14")?.pixelFormat == kCVPixelFormatType_14Bayer_BGGR)
        // CSI-2 packing is read for 10 and 12 bits only.
        #expect(format("RG10", packed: true)?.packed == true)
        #expect(format("RG12", packed: true)?.packed == true)
        #expect(format("RGGB", packed: true) == nil)
        #expect(format("RG14", packed: true) == nil)
        // Picture formats and unknown modifiers are not raw.
        #expect(format("BG24") == nil)
        #expect(format("YUYV") == nil)
        #expect(LibcameraRawFormat(fourcc: LibcameraRawFormat.fourcc("RG10"), modifier: 7, width: 8, height: 2) == nil)
    }

    /// Unpacks `bytes` (rows `stride` apart) of `format`.
    private func unpack(_ format: LibcameraRawFormat, _ bytes: [UInt8], stride: Int) -> [UInt16]? {
        let mosaic = RawMosaic(width: format.width, height: format.height, blackLevel: 0, whiteLevel: format.whiteLevel)
        let done = bytes.withUnsafeBufferPointer { format.unpack($0.baseAddress!, bytes: $0.count, stride: stride, into: mosaic) }
        return done ? mosaic.withSamples { Array($0) } : nil
    }

    @Test func unpacksEachPackingWithRowPadding() throws {
        // 8 bits: a byte a sample; rows padded to 6 bytes.
        let eight = try #require(format("RGGB", width: 4, height: 2))
        #expect(unpack(eight, [1, 2, 3, 4, 0xEE, 0xEE, 5, 6, 7, 8], stride: 6) == [1, 2, 3, 4, 5, 6, 7, 8])
        // 10 bits unpacked: little-endian words.
        let ten = try #require(format("BA10", width: 2, height: 1))
        #expect(unpack(ten, [0xFF, 0x03, 0x01, 0x02], stride: 4) == [1023, 513])
        // 10 bits CSI-2 packed: four high bytes, then their low 2 bits, first sample lowest.
        let packed10 = try #require(format("BA10", packed: true, width: 4, height: 2))
        #expect(packed10.rowBytes == 5)
        let row10: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0b11_10_01_00]
        #expect(unpack(packed10, row10 + [0xEE, 0xEE, 0xEE] + row10, stride: 8) == [0x48, 0xD1, 0x15A, 0x1E3, 0x48, 0xD1, 0x15A, 0x1E3])
        // 12 bits CSI-2 packed: two high bytes, then their low 4 bits, first sample lowest.
        let packed12 = try #require(format("RG12", packed: true, width: 4, height: 1))
        #expect(packed12.rowBytes == 6)
        #expect(unpack(packed12, [0xAB, 0xCD, 0x21, 0x01, 0xFF, 0xF0], stride: 6) == [0xAB1, 0xCD2, 0x010, 0xFFF])
        // Packed rows end in whole groups: 6 RAW10 samples take two groups (10 bytes), 5
        // RAW12 samples three (9 bytes).
        let six = try #require(format("BA10", packed: true, width: 6, height: 1))
        #expect(six.rowBytes == 10)
        #expect(unpack(six, row10 + [0x9A, 0xBC, 0, 0, 0b0000_0101], stride: 10) == [0x48, 0xD1, 0x15A, 0x1E3, 0x269, 0x2F1])
        #expect(unpack(six, row10 + [0x9A, 0xBC, 0, 0], stride: 9) == nil)
        #expect(try #require(format("RG12", packed: true, width: 5, height: 1)).rowBytes == 9)
        // 16 bits: whole words.
        let sixteen = try #require(format("GR16", width: 1, height: 1))
        #expect(unpack(sixteen, [0x34, 0x12], stride: 2) == [0x1234])
    }

    @Test func shortFramesAndNarrowStridesAreRefused() throws {
        let ten = try #require(format("RG10", width: 4, height: 2))
        #expect(unpack(ten, [UInt8](repeating: 0, count: 15), stride: 8) == nil)
        #expect(unpack(ten, [UInt8](repeating: 0, count: 16), stride: 6) == nil)
        #expect(unpack(ten, [UInt8](repeating: 0, count: 16), stride: 8) != nil)
    }

    @Test func colourComesFromTheFramesMetadata() {
        var frame = OCLcFrame()
        // No metadata (vimc): black 0, grey neutral, the camera's RGB taken as linear sRGB.
        let mosaic = RawMosaic(width: 2, height: 2, blackLevel: 0, whiteLevel: 1023)
        let plain = RawColour.still(mosaic, frame)
        #expect(plain.asShotNeutral == SIMD3(1, 1, 1))
        #expect(abs(plain.colorMatrix1[0] - 3.2406) < 0.01 && abs(plain.colorMatrix1[1] + 1.5372) < 0.01)
        #expect(RawColour.blackLevel(frame, bits: 10) == 0)
        // A Pi's: black levels out of 16 bits, colour gains (white is 1 / gain), a CCM.
        frame.metadata = UInt32(OC_LC_MD_SENSOR_BLACK_LEVELS | OC_LC_MD_COLOUR_GAINS | OC_LC_MD_COLOUR_CORRECTION_MATRIX)
        frame.sensorBlackLevels = (4096, 4096, 4096, 4096)
        frame.colourGains = (2, 1.6)
        #expect(RawColour.blackLevel(frame, bits: 10) == 64)
        #expect(RawColour.blackLevel(frame, bits: 12) == 256)
        let d65 = RGBColorSpace.sRGB.toXYZ * SIMD3<Double>(1, 1, 1)
        func mapsNeutralToD65(_ still: RawStill) -> Bool {
            let white = Matrix3x3(rowMajor: still.colorMatrix1).inverse! * still.asShotNeutral
            return abs(white.x / white.y - d65.x / d65.y) < 1e-6 && abs(white.z / white.y - d65.z / d65.y) < 1e-6
        }
        // A CCM of a Pi's kind (rows summing to 1) after the gains: the neutral (1 / gain)
        // is D65's white, and XYZ → camera is the inverse of that whole chain.
        frame.colourCorrectionMatrix = (1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.1, -0.6, 1.5)
        let pi = RawColour.still(mosaic, frame)
        #expect(abs(pi.asShotNeutral.x - 0.5) < 1e-6 && pi.asShotNeutral.y == 1 && abs(pi.asShotNeutral.z - 0.625) < 1e-6)
        #expect(mapsNeutralToD65(pi))
        let ccm = Matrix3x3(rowMajor: [1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.1, -0.6, 1.5].map { Double(Float($0)) })
        let chain = (RGBColorSpace.sRGB.toXYZ * ccm * Matrix3x3(diagonal: SIMD3(2, 1, Double(Float(1.6))))).inverse!.rowMajor
        #expect(zip(pi.colorMatrix1, chain).allSatisfy { abs($0 - $1) < 1e-9 }, "\(pi.colorMatrix1)")
        // Gains without a CCM: the camera's RGB, white-balanced, is linear sRGB; XYZ →
        // camera's first row is sRGB's halved (red gain 2), its last sRGB's over 1.6.
        frame.metadata = UInt32(OC_LC_MD_COLOUR_GAINS)
        let gainsOnly = RawColour.still(mosaic, frame)
        #expect(mapsNeutralToD65(gainsOnly))
        #expect(abs(gainsOnly.colorMatrix1[0] - 3.2406 / 2) < 0.01 && abs(gainsOnly.colorMatrix1[8] - 1.0572 / 1.6) < 0.01)
    }

    /// vimc's test pattern, 75% colour bars: white, yellow, cyan, green, magenta, red, blue,
    /// black, as which of red, green and blue each bar has.
    static let bars: [SIMD3<Int>] = [
        SIMD3(1, 1, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1), SIMD3(0, 1, 0), SIMD3(1, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 0, 0),
    ]

    /// A mosaic of the bars in `pattern` at 75% of 10 bits.
    static func barMosaic(_ pattern: String, width: Int = 128, height: Int = 32) -> RawMosaic {
        let mosaic = RawMosaic(width: width, height: height, blackLevel: 0, whiteLevel: 1023, pattern: pattern)
        let letters = Array(pattern)
        for y in 0..<height {
            for x in 0..<width {
                let bar = bars[x * 8 / width]
                let channel = letters[(y % 2) * 2 + x % 2]
                let on = channel == "R" ? bar.x : channel == "G" ? bar.y : bar.z
                mosaic.samples[y * width + x] = on == 1 ? 767 : 0
            }
        }
        return mosaic
    }

    /// Each layout's DNG develops (LibRaw, no white balance, into sRGB) into the bars: a
    /// wrong colour filter tag would turn yellow into cyan or magenta.
    @Test(.enabled(if: ShellCommand.run("python3 -c 'import rawpy'").status == 0))
    func eachLayoutsDNGDevelopsIntoItsColours() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("develop-bars-\(getpid()).py")
        try """
            import sys, rawpy
            with rawpy.imread(sys.argv[1]) as raw:
                rgb = raw.postprocess(use_camera_wb=True, no_auto_bright=True, output_bps=16, gamma=(1, 1),
                                      output_color=rawpy.ColorSpace.sRGB, user_flip=0)
            h, w, _ = rgb.shape
            for bar in range(8):
                x = w * bar // 8 + w // 16
                print(*rgb[h // 2 - 2:h // 2 + 2, x - 2:x + 2].reshape(-1, 3).mean(axis=0) / 65535)
            """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        for pattern in ["RGGB", "GRBG", "GBRG", "BGGR"] {
            let mosaic = Self.barMosaic(pattern)
            let raw = RawColour.still(mosaic, OCLcFrame())
            let description = DNGWriter.Description(
                width: mosaic.width, height: mosaic.height, pattern: pattern, blackLevel: 0, whiteLevel: 1023,
                colorMatrix1: raw.colorMatrix1, colorMatrix2: raw.colorMatrix2, illuminant1: 21, illuminant2: 21,
                asShotNeutral: raw.asShotNeutral, exif: ExifMetadata(make: "libcamera", model: "bars"))
            let dng = try mosaic.withSamples { try DNGWriter.dng($0, description) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bars-\(pattern)-\(getpid()).dng")
            try dng.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let developed = ShellCommand.run("python3 \(script.path) \(file.path)")
            #expect(developed.status == 0, "\(developed.output)")
            let means = developed.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            try #require(means.count == 8, "\(pattern): \(developed.output)")
            for (bar, mean) in zip(Self.bars, means) {
                let channels = SIMD3(mean[0], mean[1], mean[2])
                for channel in 0..<3 {
                    if bar[channel] == 1 {
                        #expect(channels[channel] > 0.5, "\(pattern) bar \(bar): \(mean)")
                    } else {
                        #expect(channels[channel] < 0.1, "\(pattern) bar \(bar): \(mean)")
                    }
                }
            }
        }
    }
}
