import Foundation
import Testing

@testable import OpenCapture

/// `videoSettings` width and height (iOS 16): frames scaled down, same aspect ratio and
/// orientation; other sizes raise.
@Suite("Video data output scaling", .serialized)
struct VideoOutputScalingTests {
    @Test("smaller sizes of the same aspect ratio are delivered, scaled")
    func scaledFrames() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.collector.keptPixels = 1
        try rig.output.setVideoSettings([
            kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey: 640, kCVPixelBufferHeightKey: 360,
        ])
        #expect(rig.output.videoSettings[kCVPixelBufferWidthKey] as? Int == 640)
        #expect(rig.output.videoSettings[kCVPixelBufferHeightKey] as? Int == 360)
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(4)
        rig.stop()
        #expect(frames.allSatisfy { $0.width == 640 && $0.height == 360 })
        // The picture is the camera's: the white marker top left, the red one top right.
        let buffer = try #require(rig.collector.newestFrameWithPixels?.buffer)
        let white = bgraPixel(buffer, x: 0.1, y: 0.1), red = bgraPixel(buffer, x: 0.9, y: 0.1)
        #expect(min(white.r, white.g, white.b) > 180, "\(white)")
        #expect(red.r > 150 && red.g < 90 && red.b < 90, "\(red)")
    }

    @Test("a portrait connection gets the size turned; the device's own format scales without conversion")
    func portraitAndSameFormat() throws {
        let rig = try TestRig()
        try rig.output.setVideoSettings([kCVPixelBufferWidthKey: 320, kCVPixelBufferHeightKey: 180])
        rig.connection.videoRotationAngle = 90
        #expect(rig.output.videoSettings[kCVPixelBufferWidthKey] as? Int == 180)
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(3)
        rig.connection.videoRotationAngle = 0
        let later = try rig.collector.waitForMoreFrames(3)
        rig.stop()
        #expect(frames.prefix(3).allSatisfy { $0.width == 180 && $0.height == 320 })
        #expect(later.suffix(2).allSatisfy { $0.width == 320 && $0.height == 180 })
        #expect(later.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
    }

    @Test("larger sizes, other aspect ratios and half-given sizes raise", arguments: [
        (2560, 1440), (640, 480), (1280, 0), (-640, -360),
    ])
    func refusedSizes(width: Int, height: Int) throws {
        let rig = try TestRig()
        #expect(throws: AVCaptureException.self) {
            try rig.output.setVideoSettings([kCVPixelBufferWidthKey: width, kCVPixelBufferHeightKey: height])
        }
        #expect(throws: AVCaptureException.self) { try rig.output.setVideoSettings([kCVPixelBufferWidthKey: 640]) }
        #expect(rig.output.videoSettings[kCVPixelBufferWidthKey] as? Int == 1280)
    }
}

@Suite("videoSettings = nil")
struct VideoSettingsResetTests {
    @Test("setting videoSettings to nil forgets a size asked for before")
    func nilForgetsTheSize() throws {
        let output = AVCaptureVideoDataOutput()
        let session = try OutputRectConversionTests.session(output)
        defer { for input in session.inputs { session.removeInput(input) } }
        output.videoSettings = [kCVPixelBufferWidthKey as String: 640, kCVPixelBufferHeightKey as String: 360]
        #expect(output.deliveredDimensions == CMVideoDimensions(width: 640, height: 360))
        output.videoSettings = nil
        #expect(output.deliveredDimensions == CMVideoDimensions(width: 1280, height: 720))
    }
}
