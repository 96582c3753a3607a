import Foundation
import Testing

@testable import OpenCapture

/// The mean of a BGRA buffer's green channel over its middle half, and its noise: the
/// deviation of horizontal neighbours' differences over √2, which a smooth shading across
/// the wall (the lens's vignetting) does not inflate.
private func greenStatistics(_ buffer: CVPixelBuffer) -> (mean: Double, deviation: Double) {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
    let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer), stride = CVPixelBufferGetBytesPerRow(buffer)
    var sum = 0.0, squares = 0.0, count = 0.0
    for row in height / 4..<3 * height / 4 {
        for column in width / 4..<3 * width / 4 {
            let value = Double(base[row * stride + column * 4 + 1])
            let difference = value - Double(base[row * stride + (column + 1) * 4 + 1])
            sum += value
            squares += difference * difference
            count += 1
        }
    }
    return (sum / count, (squares / count / 2).squareRoot())
}

/// Quality prioritization doing different work, at VGA size.
@Suite("Photo quality prioritization", .serialized)
struct PhotoQualityTests {
    @Test("a .quality photo fuses 4 frames: noise on a flat grey wall falls by at least √4·0.8; .speed takes one")
    func qualityFusesFrames() throws {
        let rig = try TestRig(preset: .vga640x480)
        let simulation = try #require(rig.device.simulation)
        try simulation.setScene(.flat(reflectance: 0.18))
        simulation.sceneLuminance = 3  // dim: high gain, visible noise
        let output = AVCapturePhotoOutput()
        rig.session.addOutput(output)
        defer {
            rig.stop()
            try? simulation.setScene(.chart)
            simulation.sceneLuminance = 200
        }
        rig.session.startRunning()
        try rig.collector.waitForFrames(25)  // exposure settles
        rig.collector.delay = 0.05
        #expect(output.maxPhotoQualityPrioritization == .balanced)
        output.maxPhotoQualityPrioritization = .quality
        func take(_ priority: AVCapturePhotoOutput.QualityPrioritization) throws -> (mean: Double, deviation: Double) {
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            // VGA, not CIF: each pixel bins fewer photosites, so there is noise well above
            // the 8-bit rounding (σ 0.29) that would floor the fused photo's.
            settings.maxPhotoDimensions = CMVideoDimensions(width: 640, height: 480)
            settings.photoQualityPrioritization = priority
            let recorder = PhotoRecorder()
            output.capturePhoto(with: settings, delegate: recorder)
            return greenStatistics(try #require(try recorder.wait()?.pixelBuffer))
        }
        let speed = try take(.speed), quality = try take(.quality)
        #expect(abs(speed.mean - quality.mean) < 4, "same exposure: means \(speed.mean) and \(quality.mean)")
        #expect(speed.deviation > 1.2, "the dim wall is noisy: σ \(speed.deviation)")
        #expect(speed.deviation / quality.deviation >= 2 * 0.8, "σ \(speed.deviation) (.speed) against \(quality.deviation) (.quality)")
    }
}
