import ColorScience
import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// `AVVideoColorPropertiesKey`: checked as AVVideoSettings.h describes it, written as the
/// track's tags, and the frames put into that colour (ffprobe reads the tags; the decoded
/// samples are compared with the colour worked out here).
@Suite("Asset writer colour properties")
struct AssetWriterColorPropertiesTests {
    typealias Fixture = AssetWriterFixture
    static let size = (width: 352, height: 288)

    static func settings(_ colour: Any) -> [String: Any] {
        [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: size.width, AVVideoHeightKey: size.height, AVVideoColorPropertiesKey: colour]
    }

    @Test("all three keys are needed, each with one of the header's values; a CFDictionary is read as a dictionary")
    func validation() throws {
        let reason = { (text: String) in
            AVCaptureException(.invalidArgument, "*** -[AVAssetWriterInput initWithMediaType:outputSettings:sourceFormatHint:] \(text)")
        }
        #expect(throws: reason("AVVideoColorPropertiesKey must contain AVVideoColorPrimariesKey, AVVideoTransferFunctionKey and AVVideoYCbCrMatrixKey")) {
            try AVAssetWriterInput.validate(.video, Self.settings([AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2]), nil)
        }
        #expect(throws: reason("Unsupported value for YCbCrMatrix in AVVideoColorPropertiesKey: P3_D65")) {
            try AVAssetWriterInput.validate(.video, Self.settings([
                AVVideoColorPrimariesKey: AVVideoColorPrimaries_P3_D65, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
                AVVideoYCbCrMatrixKey: AVVideoColorPrimaries_P3_D65,
            ]), nil)
        }
        #expect(throws: reason("AVVideoColorPropertiesKey must be a dictionary")) {
            try AVAssetWriterInput.validate(.video, Self.settings("ITU_R_709_2"), nil)
        }
        let hd = [
            AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
            AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_709_2,
        ]
        try AVAssetWriterInput.validate(.video, Self.settings(hd), nil)
        try AVAssetWriterInput.validate(.video, Self.settings(hd as CFDictionary), nil)
        // The values are Core Video's tag names.
        #expect(AVVideoColorPrimaries_P3_D65 == kCVImageBufferColorPrimaries_P3_D65)
        #expect(AVVideoTransferFunction_IEC_sRGB == kCVImageBufferTransferFunction_sRGB)
        #expect(AVVideoYCbCrMatrix_ITU_R_601_4 == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
    }

    /// A BGRA frame, red on the left half and blue on the right.
    static func redAndBlue() -> CVPixelBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, size.width, size.height, kCVPixelFormatType_32BGRA, nil, &made)
        let buffer = made!
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let pixel = base + y * stride + 4 * x
                (pixel[0], pixel[1], pixel[2], pixel[3]) = x < size.width / 2 ? (0, 0, 255, 255) : (255, 0, 0, 255)
            }
        }
        return buffer
    }

    /// Writes ten frames through an input with `colour` and returns the file.
    static func write(_ frame: CVPixelBuffer, colour: [String: String]) async throws -> (url: URL, writer: AVAssetWriter) {
        try await Fixture.writeFrames(Self.settings(colour), frame: frame, count: 10)
    }

    /// Y', Cb, Cr (video range) of an sRGB-encoded colour taken to Display P3 primaries and
    /// encoded with the BT.601 matrix, as the writer should store it.
    static func expectedP3BT601(_ srgb: SIMD3<Double>) -> SIMD3<Double> {
        let matrix = RGBColorSpace.sRGB.conversionMatrix(to: .displayP3)
        let linear = SIMD3(TransferFunction.sRGB.decode(srgb.x), TransferFunction.sRGB.decode(srgb.y), TransferFunction.sRGB.decode(srgb.z))
        let p3 = matrix * linear
        let encoded = SIMD3(
            TransferFunction.sRGB.encode(min(max(p3.x, 0), 1)), TransferFunction.sRGB.encode(min(max(p3.y, 0), 1)),
            TransferFunction.sRGB.encode(min(max(p3.z, 0), 1)))
        let luma = 0.299 * encoded.x + 0.587 * encoded.y + 0.114 * encoded.z
        return SIMD3(16 + 219 * luma, 128 + 224 * (encoded.z - luma) / 1.772, 128 + 224 * (encoded.x - luma) / 1.402)
    }

    @Test("BGRA sRGB frames asked for P3 primaries and the BT.601 matrix: tagged so, and each colour's samples are P3's in BT.601")
    func gamutAndMatrix() async throws {
        let (url, writer) = try await Self.write(Self.redAndBlue(), colour: [
            AVVideoColorPrimariesKey: AVVideoColorPrimaries_P3_D65, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
            AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_601_4,
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        let video = try #require(Fixture.stream(try Fixture.probe(url), "video"))
        #expect(video["color_primaries"] as? String == "smpte432")
        #expect(video["color_transfer"] as? String == "bt709")
        #expect(video["color_space"] as? String == "smpte170m")
        #expect(video["color_range"] as? String == "tv")
        let yuv = [UInt8](try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
        let (width, height) = Self.size
        try #require(yuv.count == width * height * 3 / 2)
        func sample(x: Int, y: Int) -> SIMD3<Double> {
            let chroma = width * height, chromaWidth = width / 2
            return SIMD3(
                Double(yuv[y * width + x]), Double(yuv[chroma + (y / 2) * chromaWidth + x / 2]),
                Double(yuv[chroma + chroma / 4 + (y / 2) * chromaWidth + x / 2]))
        }
        for (x, colour) in [(width / 4, SIMD3<Double>(1, 0, 0)), (3 * width / 4, SIMD3<Double>(0, 0, 1))] {
            let expected = Self.expectedP3BT601(colour), got = sample(x: x, y: height / 2)
            let difference = got - expected
            #expect(max(abs(difference.x), abs(difference.y), abs(difference.z)) <= 3, "colour \(colour): stored \(got), expected \(expected)")
        }
        // Not the colour unconverted: sRGB red in BT.601 would have Cr 240.
        #expect(sample(x: width / 4, y: height / 2).z < 232)
    }

    /// A '420v' frame of BT.709 red (R'G'B' 1, 0, 0 in BT.709 video range), tagged BT.709.
    static func bt709Red() -> CVPixelBuffer {
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, size.width, size.height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        let buffer = made!
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<size.height { (luma + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)).update(repeating: 63, count: size.width) }
        for y in 0..<size.height / 2 {
            let row = chroma + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
            for x in 0..<size.width / 2 { (row[2 * x], row[2 * x + 1]) = (102, 240) }
        }
        CVBufferSetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldPropagate)
        return buffer
    }

    @Test("a Y'CbCr frame of another matrix is decoded with its own and encoded with the asked one")
    func yCbCrMatrixChange() async throws {
        let (url, writer) = try await Self.write(Self.bt709Red(), colour: [
            AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
            AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_601_4,
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(writer.status == .completed)
        let yuv = [UInt8](try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
        let (width, height) = Self.size
        let chroma = width * height, at = (height / 4) * (width / 2) + width / 4
        let stored = SIMD3(Double(yuv[(height / 2) * width + width / 2]), Double(yuv[chroma + at]), Double(yuv[chroma + chroma / 4 + at]))
        // Red in BT.601, video range: Y' 0.299, Cb -0.299/1.772, Cr 0.5.
        let expected = SIMD3(16 + 219 * 0.299, 128 + 224 * (-0.299 / 1.772), 240.0)
        let difference = stored - expected
        #expect(max(abs(difference.x), abs(difference.y), abs(difference.z)) <= 3, "stored \(stored), expected \(expected)")
    }

    @Test("frames already in the asked colour are written as they are, under its tags")
    func matchingFramesPassThrough() async throws {
        let frame = Fixture.frame()
        let (url, writer) = try await Self.write(frame, colour: [
            AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
            AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_709_2,
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(writer.status == .completed)
        let video = try #require(Fixture.stream(try Fixture.probe(url), "video"))
        #expect(video["color_primaries"] as? String == "bt709" && video["color_space"] as? String == "bt709")
        let gray = [UInt8](try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
        // ffmpeg's gray is full range: the frame's 126 and 235 (video range) are 128 and 255.
        #expect(abs(Int(gray[10 * Self.size.width + 10]) - 255) <= 3 && abs(Int(gray[200 * Self.size.width + 200]) - 128) <= 3)
    }

    @Test("HLG frames asked for BT.709 SDR fail the writer with the reason: no tone mapping")
    func hdrToSdrFails() async throws {
        let frame = Self.redAndBlue()
        CVBufferSetAttachment(frame, kCVImageBufferTransferFunctionKey, kCVImageBufferTransferFunction_ITU_R_2100_HLG, .shouldPropagate)
        CVBufferSetAttachment(frame, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_2020, .shouldPropagate)
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: Self.settings([
            AVVideoColorPrimariesKey: AVVideoColorPrimaries_ITU_R_709_2, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
            AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_709_2,
        ]))
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        #expect(input.append(Fixture.videoSample(frame, at: .zero)))
        // The frame is converted on the writer's queue; its failure ends writing.
        eventually("the writer failed") { writer.status == .failed }
        let error = try #require(writer.error as? AVError)
        #expect(error.localizedDescription.contains("no tone mapping"), "\(error)")
    }
}
