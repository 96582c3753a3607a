import Foundation
import Testing
import TestSupport

@testable import OpenCapture

@Suite("Time-code scene element", .serialized)
struct TimeCodeTests {
    static let card = AVCaptureDevice.Simulation.SceneElement(.timeCode, x: 0.2, y: 0.25, width: 0.12, distance: 0.5)

    @Test(
        "each frame shows its own presentation time, read back in 8-bit Y'CbCr and BGRA",
        arguments: [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8Planar,
        ])
    func framesCarryTheirTime(pixelFormat: OSType) throws {
        let rig = try TestRig(preset: .cif352x288, pixelFormat: pixelFormat)
        defer { rig.stop() }
        try rig.device.simulation?.setSceneElements([Self.card])
        rig.collector.keptPixels = 2
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(3)
        let (index, buffer) = try #require(rig.collector.log.newestPixels)
        let codes = AVCaptureDevice.Simulation.timeCodes(in: buffer)
        let time = rig.collector.frames[index].time
        #expect(frames.count >= 3)
        #expect(codes.count == 1)
        // The code holds whole microseconds.
        let expected = time.convertScale(1_000_000, method: .roundTowardZero)
        #expect(codes.first.map { $0.convertScale(1_000_000, method: .roundTowardZero) } == expected)
    }

    @Test("a grey picture reads through the luma entry point; a picture without a code reads none")
    func lumaEntryPoint() throws {
        let rig = try TestRig(preset: .cif352x288)
        defer { rig.stop() }
        try rig.device.simulation?.setSceneElements([Self.card])
        rig.collector.keptPixels = 1
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(2)
        let buffer = try #require(rig.collector.log.newestPixels?.buffer)
        let luma = Data(bytes: buffer.planeAddress(0), count: buffer.bytesPerRow(0) * buffer.height)
        let codes = luma.withUnsafeBytes {
            AVCaptureDevice.Simulation.timeCodes(inLuma: $0, width: buffer.width, height: buffer.height, bytesPerRow: buffer.bytesPerRow(0))
        }
        #expect(codes == AVCaptureDevice.Simulation.timeCodes(in: buffer) && codes.count == 1)
        let blank = Data(count: 64 * 64)
        #expect(blank.withUnsafeBytes { AVCaptureDevice.Simulation.timeCodes(inLuma: $0, width: 64, height: 64, bytesPerRow: 64) }.isEmpty)
    }

    @Test("a time code must face the camera and be large enough to read")
    func refusesUnreadablePlacements() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let simulation = try #require(device.simulation)
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) {
            try simulation.setSceneElements([.init(.timeCode, x: 0.3, y: 0.3, width: 0.1, distance: 0.5, yaw: 20)])
        }
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try simulation.setSceneElements([.init(.timeCode, width: 0.001, distance: 2)]) }
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try simulation.setSceneElements([.init(.timeCode, x: 0.99, y: 0.5, width: 0.1)]) }
        try simulation.setSceneElements([])
    }
}
