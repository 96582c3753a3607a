import CaptureCore
import Foundation
import MediaIO
import Testing
@testable import V4L2Camera

/// Conversions from device formats to ours, on synthetic frames (no device needed).
@Suite("V4L2 frame conversion")
struct V4L2FrameConverterTests {
    /// A packed 4:2:2 frame of one colour: YUYV or UYVY byte order.
    static func packed(_ code: V4L2PixelCode, width: Int, height: Int, y: UInt8, cb: UInt8, cr: UInt8) -> [UInt8] {
        let pair: [UInt8] = code == .yuyv ? [y, cb, y, cr] : [cb, y, cr, y]
        return Array((0..<(width * height / 2)).map { _ in pair }.joined())
    }

    static func convert(_ bytes: [UInt8], _ code: V4L2PixelCode, width: Int, height: Int, stride: Int, to format: PixelFormat) -> CVBuffer {
        let output = CVBuffer(format: format, width: width, height: height)
        let converter = V4L2FrameConverter(source: code, width: width, height: height, sourceStride: stride)
        let ok = bytes.withUnsafeBytes { converter.convert($0.baseAddress!, bytes: $0.count, into: output) }
        #expect(ok)
        return output
    }

    static func sample(_ buffer: CVBuffer, plane: Int, x: Int, y: Int) -> UInt8 {
        buffer.planeAddress(plane).load(fromByteOffset: y * buffer.bytesPerRow(plane) + x, as: UInt8.self)
    }

    @Test(arguments: [V4L2PixelCode.yuyv, .uyvy])
    func packedYUVRepacksIntoVideoRangeFormats(code: V4L2PixelCode) {
        let frame = Self.packed(code, width: 64, height: 16, y: 81, cb: 90, cr: 240)  // BT.601 red
        let nv12 = Self.convert(frame, code, width: 64, height: 16, stride: 128, to: .yuv420BiPlanarVideoRange)
        #expect(Self.sample(nv12, plane: 0, x: 10, y: 5) == 81)
        #expect(Self.sample(nv12, plane: 1, x: 6, y: 3) == 90)
        #expect(Self.sample(nv12, plane: 1, x: 7, y: 3) == 240)
        let i420 = Self.convert(frame, code, width: 64, height: 16, stride: 128, to: .yuv420PlanarVideoRange)
        #expect(Self.sample(i420, plane: 1, x: 3, y: 3) == 90)
        #expect(Self.sample(i420, plane: 2, x: 3, y: 3) == 240)
    }

    @Test(arguments: [V4L2PixelCode.yuyv, .uyvy, .rgb24, .bgr24])
    func everySourceReachesEveryOutput(code: V4L2PixelCode) {
        // BT.601 limited red (81, 90, 240) is R'G'B' (255, 0, 0).
        let width = 64, height = 16
        let frame: [UInt8]
        switch code {
        case .rgb24: frame = Array((0..<(width * height)).map { _ in [UInt8(255), 0, 0] }.joined())
        case .bgr24: frame = Array((0..<(width * height)).map { _ in [UInt8(0), 0, 255] }.joined())
        default: frame = Self.packed(code, width: width, height: height, y: 81, cb: 90, cr: 240)
        }
        let stride = code == .rgb24 || code == .bgr24 ? width * 3 : width * 2
        let bgra = Self.convert(frame, code, width: width, height: height, stride: stride, to: .bgra)
        let pixel = bgra.planeAddress(0).load(fromByteOffset: 5 * bgra.bytesPerRow(0) + 40, as: SIMD4<UInt8>.self)
        #expect(abs(Int(pixel.z) - 255) <= 3 && pixel.y <= 3 && pixel.x <= 3, "BGRA \(pixel)")
        let video = Self.convert(frame, code, width: width, height: height, stride: stride, to: .yuv420BiPlanarVideoRange)
        #expect(abs(Int(Self.sample(video, plane: 0, x: 9, y: 9)) - 81) <= 2)
        // Full range BT.601 red: Y' = 0.299 · 255 = 76, Cr = 255.
        let full = Self.convert(frame, code, width: width, height: height, stride: stride, to: .yuv420BiPlanarFullRange)
        #expect(abs(Int(Self.sample(full, plane: 0, x: 9, y: 9)) - 76) <= 2)
        #expect(Self.sample(full, plane: 1, x: 9, y: 3) >= 250)
        let planar = Self.convert(frame, code, width: width, height: height, stride: stride, to: .yuv420PlanarFullRange)
        #expect(Self.sample(planar, plane: 2, x: 4, y: 4) >= 250)
    }

    @Test func nv12AndI420CopyAcrossStrides() {
        let width = 32, height = 8, stride = 48
        var nv12 = [UInt8](repeating: 0, count: stride * height * 3 / 2)
        for row in 0..<height { for x in 0..<width { nv12[row * stride + x] = UInt8(row * 10 + x) } }
        for row in 0..<(height / 2) { for x in 0..<width { nv12[stride * height + row * stride + x] = UInt8(200 + row) } }
        let out = Self.convert(nv12, .nv12, width: width, height: height, stride: stride, to: .yuv420BiPlanarVideoRange)
        #expect(Self.sample(out, plane: 0, x: 7, y: 3) == 37)
        #expect(Self.sample(out, plane: 1, x: 5, y: 2) == 202)
        let planar = Self.convert(nv12, .nv12, width: width, height: height, stride: stride, to: .yuv420PlanarVideoRange)
        #expect(Self.sample(planar, plane: 1, x: 3, y: 1) == 201)
    }

    @Test func motionJPEGDecodesThroughTurboJPEG() throws {
        // A real JPEG from our own encoder: a mid-grey frame.
        let source = CVBuffer(format: .bgra, width: 64, height: 48)
        source.planeAddress(0).initializeMemory(as: UInt8.self, repeating: 128, count: source.byteCount)
        let jpeg = [UInt8](try JPEGEncoder.encode(source, quality: 95, exif: nil))
        let out = Self.convert(jpeg, .mjpeg, width: 64, height: 48, stride: 0, to: .bgra)
        let pixel = out.planeAddress(0).load(fromByteOffset: 20 * out.bytesPerRow(0) + 80, as: SIMD4<UInt8>.self)
        #expect(abs(Int(pixel.x) - 128) <= 3 && abs(Int(pixel.z) - 128) <= 3)
        // A truncated or foreign frame is refused, not decoded into garbage.
        let converter = V4L2FrameConverter(source: .mjpeg, width: 64, height: 48, sourceStride: 0)
        let junk = [UInt8](repeating: 7, count: 100)
        #expect(!junk.withUnsafeBytes { converter.convert($0.baseAddress!, bytes: 100, into: out) })
    }

    @Test func shortFramesAreRefused() {
        let converter = V4L2FrameConverter(source: .yuyv, width: 64, height: 16, sourceStride: 128)
        let out = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 16)
        let short = [UInt8](repeating: 0, count: 100)
        #expect(!short.withUnsafeBytes { converter.convert($0.baseAddress!, bytes: 100, into: out) })
    }
}
