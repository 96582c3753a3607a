import ColorScience
import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// The first `frames` frames of a back wide camera (seed 5, virtual time) at 352×288 in
/// `pixelFormat`; the last one's buffer. At `luminance` 40 cd/m² the first frame (auto
/// exposure's starting point, the same for every format) is well exposed.
private func render(
    _ pixelFormat: PixelFormat, colorSpace: Int = 0, content: SceneContent = .chart, frames: Int = 1,
    luminance: Float = 40
) throws -> CVPixelBuffer {
    let camera = SimulatedCameraCatalog.builtInCameras()[0]
    camera.pacing = .virtual
    camera.seed = 5
    camera.sceneContent = content
    camera.sceneLuminanceScale = luminance
    let sink = MetadataSink(limit: frames)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    var configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset352x288"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: pixelFormat)
    configuration.colorSpace = colorSpace
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return try #require(sink.lastBuffer)
}

/// Every sample of `plane` of an 8-bit buffer.
private func bytes(_ buffer: CVPixelBuffer, plane: Int) -> [Int] {
    let geometry = buffer.format.planeGeometry(width: buffer.width, height: buffer.height)[plane]
    var samples: [Int] = []
    for row in 0..<geometry.height {
        let line = (buffer.planeAddress(plane) + row * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self)
        for x in 0..<geometry.width * geometry.bytesPerPixel { samples.append(Int(line[x])) }
    }
    return samples
}

/// Every word of `plane` of a 10-bit buffer, as stored (value << 6).
private func words(_ buffer: CVPixelBuffer, plane: Int) -> [UInt16] {
    let geometry = buffer.format.planeGeometry(width: buffer.width, height: buffer.height)[plane]
    var samples: [UInt16] = []
    for row in 0..<geometry.height {
        let line = (buffer.planeAddress(plane) + row * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)
        for x in 0..<geometry.width * geometry.bytesPerPixel / 2 { samples.append(line[x]) }
    }
    return samples
}

/// A linear grey ramp across 256 columns, 0.03 ... 0.45 of white.
private let ramp: SceneContent = {
    let row = (0..<256).map { SIMD3<Float>(repeating: 0.03 + 0.42 * Float($0) / 255) }
    return .image(SceneImage(width: 256, height: 4, linear: Array([[SIMD3<Float>]](repeating: row, count: 4).joined()), name: "ramp"))
}()

/// Black on the left, far beyond white (clipped) on the right.
private let blackAndClipped: SceneContent = {
    let row = [SIMD3<Float>](repeating: SIMD3(repeating: 0), count: 8) + [SIMD3<Float>](repeating: SIMD3(repeating: 40), count: 8)
    return .image(SceneImage(width: 16, height: 4, linear: Array([[SIMD3<Float>]](repeating: row, count: 4).joined()), name: "ends"))
}()

@Suite("TenBit rendering ('x420', 'xf20')", .serialized)
struct TenBitRenderTests {
    /// The same frame in '420v' and 'x420': every 10-bit sample, divided by 4, is within one
    /// code of the 8-bit one, the low 6 bits of every word are zero, and the 10-bit values
    /// are not 8-bit ones shifted (their two extra bits vary).
    @Test func tenBitSamplesMatchTheEightBitPathWithMorePrecision() throws {
        let eight = try render(.yuv420BiPlanarVideoRange)
        let ten = try render(.yuv420TenBitBiPlanarVideoRange)
        let luma = words(ten, plane: 0).map { Int($0 >> 6) }
        let mean = Double(luma.reduce(0, +)) / Double(luma.count)
        #expect(mean > 300 && mean < 700 && luma.filter { $0 >= 940 }.count < luma.count / 50, "a well-exposed frame: mean \(mean)")
        #expect(ten.format == .yuv420TenBitBiPlanarVideoRange && ten.planes.count == 2)
        #expect(ten.bytesPerRow(0) >= 2 * ten.width && ten.planes[1].width == (ten.width + 1) / 2)
        for plane in 0..<2 {
            let narrow = bytes(eight, plane: plane), wide = words(ten, plane: plane)
            #expect(narrow.count == wide.count)
            #expect(wide.allSatisfy { $0 & 0x3F == 0 }, "plane \(plane): the 10 bits sit in the high bits")
            let worst = zip(narrow, wide).map { abs(Double($1 >> 6) / 4 - Double($0)) }.max() ?? 99
            #expect(worst <= 1, "plane \(plane): worst difference \(worst) codes")
            let extraBits = Set(wide.map { ($0 >> 6) & 3 })
            #expect(extraBits.count == 4, "plane \(plane): the two extra bits take every value")
        }
    }

    /// A smooth grey ramp: about four times as many distinct luma levels in 10 bits.
    @Test func aGreyRampHasAboutFourTimesTheLevels() throws {
        func levels(_ buffer: CVPixelBuffer) -> Int {
            let rows = (buffer.height / 3)..<(2 * buffer.height / 3)
            if buffer.format.isTenBit {
                let all = words(buffer, plane: 0)
                return Set(rows.flatMap { all[($0 * buffer.width)..<(($0 + 1) * buffer.width)] }).count
            }
            let all = bytes(buffer, plane: 0)
            return Set(rows.flatMap { all[($0 * buffer.width)..<(($0 + 1) * buffer.width)] }).count
        }
        let eight = levels(try render(.yuv420BiPlanarFullRange, content: ramp, frames: 10, luminance: 200))
        let ten = levels(try render(.yuv420TenBitBiPlanarFullRange, content: ramp, frames: 10, luminance: 200))
        #expect(eight > 60, "8-bit levels \(eight)")
        #expect(Double(ten) > 3.2 * Double(eight), "10-bit \(ten) vs 8-bit \(eight) levels")
    }

    /// Video range keeps luma in 64 ... 940 and chroma in 64 ... 960 (black lands on 64,
    /// clipped white on 940); full range reaches 0 and 1023.
    @Test func videoAndFullRangeCodeBounds() throws {
        let video = try render(.yuv420TenBitBiPlanarVideoRange, content: blackAndClipped, frames: 3)
        let videoLuma = words(video, plane: 0).map { Int($0 >> 6) }, videoChroma = words(video, plane: 1).map { Int($0 >> 6) }
        #expect(videoLuma.min() == 64 && videoLuma.max() == 940, "\(videoLuma.min()!) ... \(videoLuma.max()!)")
        #expect(videoChroma.allSatisfy { (64...960).contains($0) })
        let full = try render(.yuv420TenBitBiPlanarFullRange, content: blackAndClipped, frames: 3)
        let fullLuma = words(full, plane: 0).map { Int($0 >> 6) }
        #expect(fullLuma.min() == 0 && fullLuma.max() == 1023, "\(fullLuma.min()!) ... \(fullLuma.max()!)")
        // Neutral: chroma at 512 in both ranges.
        #expect(words(full, plane: 1).allSatisfy { abs(Int($0 >> 6) - 512) <= 2 })
    }

    /// HLG frames carry BT.2020 / BT.2100 HLG tags, and the HLG curve lifts mid-tones above
    /// sRGB's for the same (first-frame) exposure; clipped white stays at 940 in both.
    @Test func hlgFramesAreTaggedAndEncodedWithTheHLGCurve() throws {
        let hlg = try render(.yuv420TenBitBiPlanarVideoRange, colorSpace: 2)
        #expect(CVBufferCopyAttachment(hlg, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_2020)
        #expect(CVBufferCopyAttachment(hlg, kCVImageBufferTransferFunctionKey, nil) as? String == kCVImageBufferTransferFunction_ITU_R_2100_HLG)
        #expect(CVBufferCopyAttachment(hlg, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_2020)
        let sdr = try render(.yuv420TenBitBiPlanarVideoRange)
        #expect(CVBufferCopyAttachment(sdr, kCVImageBufferTransferFunctionKey, nil) as? String == kCVImageBufferTransferFunction_sRGB)
        func mean(_ buffer: CVPixelBuffer) -> Double {
            let luma = words(buffer, plane: 0)
            return luma.reduce(0.0) { $0 + Double($1 >> 6) } / Double(luma.count)
        }
        #expect(mean(hlg) > mean(sdr) + 40, "HLG \(mean(hlg)) vs sRGB \(mean(sdr))")
        let clipped = try render(.yuv420TenBitBiPlanarVideoRange, colorSpace: 2, content: blackAndClipped, frames: 3)
        #expect(words(clipped, plane: 0).map { $0 >> 6 }.max() == 940)
    }

    /// The ISP's HLG polynomial against ARIB STD-B67 in double precision: within 1e-4
    /// everywhere (a tenth of a 10-bit code), exact at the knee and at white.
    @Test func hlgKernelCurveMatchesTheStandard() {
        var worst = 0.0
        for i in 0...4096 {
            let linear = Double(i) / 4096
            worst = max(worst, abs(Double(ISP.encodeHLG(Float(linear))) - TransferFunction.hlg.encode(linear)))
        }
        #expect(worst < 1e-4, "worst \(worst)")
        #expect(abs(ISP.encodeHLG(1.0 / 12) - 0.5) < 1e-5 && abs(ISP.encodeHLG(1) - 1) < 1e-4)
    }
}
