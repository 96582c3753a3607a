import ColorScience
import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// Mean B, G, R codes of a BGRA frame's left and right halves (inner parts), and the
/// buffer's colour attachments.
private struct HalvesFrame: Sendable {
    var left: SIMD3<Double>
    var right: SIMD3<Double>
    var primaries: String?
    var transfer: String?

    init(buffer: CVPixelBuffer, metadata: FrameMetadata) {
        func mean(_ x0: Double, _ x1: Double) -> SIMD3<Double> {
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            var sum = SIMD3<Double>(), n = 0.0
            for row in Int(0.3 * Double(buffer.height))..<Int(0.7 * Double(buffer.height)) {
                for column in Int(x0 * Double(buffer.width))..<Int(x1 * Double(buffer.width)) {
                    let p = base + row * buffer.bytesPerRow(0) + 4 * column
                    sum += SIMD3(Double(p[2]), Double(p[1]), Double(p[0]))
                    n += 1
                }
            }
            return sum / n
        }
        left = mean(0.15, 0.35)
        right = mean(0.65, 0.85)
        primaries = CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String
        transfer = CVBufferCopyAttachment(buffer, kCVImageBufferTransferFunctionKey, nil) as? String
    }
}

/// sRGB-encoded code → linear, per channel.
private func linear(_ code: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3((0..<3).map { TransferFunction.sRGB.decode(code[$0] / 255) })
}

/// Renders a picture whose left half is a green outside sRGB (linear P3 (0.02, 0.4, 0.02),
/// linear sRGB (−0.066, 0.413, −0.010)) and whose right half is 18 % grey, in `colorSpace`.
private func render(colorSpace: Int) throws -> HalvesFrame {
    let green = RGBColorSpace.displayP3.conversionMatrix(to: .sRGB) * SIMD3(0.02, 0.4, 0.02)
    var pixels: [SIMD3<Float>] = []
    for _ in 0..<8 {
        pixels += [SIMD3<Float>](repeating: SIMD3<Float>(green), count: 8) + [SIMD3<Float>](repeating: SIMD3(repeating: 0.18), count: 8)
    }
    let camera = SimulatedCameraCatalog.builtInCameras()[0]
    camera.pacing = .virtual
    camera.sceneContent = .image(SceneImage(width: 16, height: 8, linear: pixels, name: "out-of-gamut"))
    let sink = MetadataSink(limit: 30)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    var configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset1280x720"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .bgra)
    configuration.colorSpace = colorSpace
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    // The last of the 30 frames, settled: measured once (in an unoptimised build that costs).
    return HalvesFrame(buffer: try #require(sink.lastBuffer), metadata: try #require(sink.frames.last))
}

@Suite("Simulated colour spaces")
struct SimulatedColorSpaceTests {
    /// sRGB has to clip a green beyond its gamut (red at 0); P3 keeps it, and converted back
    /// to sRGB it is the out-of-gamut colour it should be. Grey comes out the same in both.
    @Test func p3KeepsColoursBeyondSRGB() throws {
        let srgb = try render(colorSpace: 0)
        let p3 = try render(colorSpace: 1)
        // Grey: same white point, same curve (auto exposure meters the differently clipped
        // green a little differently, hence a few codes).
        let greyDifference = srgb.right - p3.right
        #expect(max(abs(greyDifference.x), abs(greyDifference.y), abs(greyDifference.z)) < 6, "grey \(srgb.right) vs \(p3.right)")
        #expect(srgb.left.x < 3, "sRGB red of the green \(srgb.left.x)")
        #expect(p3.left.x > 15, "P3 red of the green \(p3.left.x)")
        // Relative to the grey (0.18), the P3 render is the P3 colour, within the camera's colour error.
        let scale = 0.18 / linear(p3.right).y
        let p3Linear = linear(p3.left) * scale
        #expect(abs(p3Linear.y - 0.4) < 0.06 && abs(p3Linear.x - 0.02) < 0.015, "P3 linear \(p3Linear)")
        let asSRGB = RGBColorSpace.displayP3.conversionMatrix(to: .sRGB) * p3Linear
        #expect(asSRGB.x < -0.03, "back in sRGB \(asSRGB)")
        #expect(srgb.primaries == kCVImageBufferColorPrimaries_ITU_R_709_2 && p3.primaries == kCVImageBufferColorPrimaries_P3_D65)
        #expect(srgb.transfer == kCVImageBufferTransferFunction_sRGB && p3.transfer == kCVImageBufferTransferFunction_sRGB)
    }
}
