import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import OpenCapture
import SimulatedCamera

@Suite("Simulated scene API", .serialized)
struct SimulationSceneAPITests {
    /// Scenes round-trip, set their default light, and bad ones throw without changing anything.
    @Test func scenesAndLight() throws {
        let simulation = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide")?.simulation)
        defer { try? simulation.setScene(.chart) }
        #expect(simulation.scene == .chart)
        #expect(abs(simulation.sceneIlluminance - 200 * Float.pi) < 0.01)
        try simulation.setScene(.lowlight)
        #expect(simulation.scene == .lowlight)
        #expect(abs(simulation.sceneIlluminance - 5) < 1e-4)
        #expect(abs(simulation.sceneLuminance - 5 / Float.pi) < 1e-4)
        simulation.sceneIlluminance = 1000
        #expect(abs(simulation.sceneLuminance - 1000 / Float.pi) < 1e-3)
        try simulation.setScene(.flat(reflectance: 0.18))
        #expect(simulation.scene == .flat(reflectance: 0.18))
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try simulation.setScene(.flat(reflectance: 1.5)) }
        #expect(throws: AVCaptureDevice.Simulation.SceneError.self) { try simulation.setScene(.image(path: "/no/such.png")) }
        #expect(simulation.scene == .flat(reflectance: 0.18))
        #expect(AVCaptureDevice.Simulation.Scene.image(path: "a.png").description == "image:a.png")
    }

    /// A picture is decoded once, to at most the camera's largest size (its 4032x3024
    /// sensor), and a file whose header claims more than it holds is refused.
    @Test func picturesAreBoundedAndHostileOnesRefused() throws {
        let simulation = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide")?.simulation)
        defer { try? simulation.setScene(.chart) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wide = folder.appendingPathComponent("wide.png")
        let ffmpeg = try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0x808080:s=6000x40", "-frames:v", "1", "-y", wide.path])
        try #require(ffmpeg.status == 0)
        try simulation.setScene(.image(path: wide.path))
        #expect(simulation.scene == .image(path: wide.path))
        guard case .image(let image) = simulation.camera.sceneContent else {
            Issue.record("no picture scene")
            return
        }
        #expect(image.width == 4032 && image.height == 40)

        // SOI, then a baseline frame header claiming 16384x16384, and nothing else.
        let claim = folder.appendingPathComponent("claim.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0x40, 0, 0x40, 0, 1, 1, 0x11, 0, 0xFF, 0xD9]).write(to: claim)
        #expect {
            try simulation.setScene(.image(path: claim.path))
        } throws: { error in
            "\(error)".contains("claims 16384x16384")
        }
        #expect(simulation.scene == .image(path: wide.path))
    }

    /// The timeline through the API, on a session's frames: light doubled at 0.5 s (frame 15
    /// at 30 fps), a ball in from the left at 0.2 s; with the raw mosaic on, each frame
    /// carries the sensor's codes, whose mean doubles at that frame too.
    @Test func timelineAndRawMosaicThroughASession() throws {
        let rig = try TestRig(uniqueID: "sim:back-tele", preset: .vga640x480, pixelFormat: kCVPixelFormatType_32BGRA)
        let simulation = rig.device.simulation!
        let probe = RawProbe()
        rig.output.setSampleBufferDelegate(probe, queue: probe.queue)
        defer {
            rig.stop()
            simulation.clearSceneTimeline()
            simulation.deliversRawMosaic = false
            try? simulation.setScene(.chart)
        }
        try simulation.setScene(.flat(reflectance: 0.18))
        simulation.sceneIlluminance = 100
        simulation.scheduleSceneIlluminance(200, atTime: 0.5)
        simulation.scheduleObjectEntering(atTime: 0.2, y: 0.3, radius: 0.1, speed: 2, restX: 0.5)
        simulation.deliversRawMosaic = true
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 250), iso: 100)
        rig.device.unlockForConfiguration()
        rig.session.startRunning()
        let frames = try probe.log.waitForFrames(20, within: .seconds(30))
        rig.session.stopRunning()
        let means = frames.map(\.rawMean)
        #expect(means.allSatisfy { $0 > 0 })
        let start = frames[0].time
        let first = try #require(frames.firstIndex { ($0.time - start).seconds >= 0.5 - 1e-9 })
        #expect(first == 15)
        #expect(abs(means[first] / means[first - 1] - 2) < 0.1, "means \(means)")
        #expect(abs(means[first - 1] / means[first - 3] - 1) < 0.05, "means \(means)")
        // The ball (reflectance 0.7, 0.1, 0.1) rests at x 0.5, y 0.3 by 0.5 s: the picture is red there.
        let red = frames[19].ball, before = frames[2].ball
        #expect(red.r > red.g + 40, "\(red)")
        #expect(abs(before.r - before.g) < 20, "\(before)")
    }
}

/// Per frame: the time, the raw green mean (above black) in the centre and the BGRA pixel
/// where the entering ball comes to rest.
private final class RawProbe: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame: Sendable {
        var time: CMTime
        var rawMean: Double
        var ball: (b: Int, g: Int, r: Int)
    }
    let queue = DispatchQueue(label: "test.raw")
    let log = FrameLog<Frame, String>(limit: 20)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let buffer = sampleBuffer.imageBuffer else { return }
        log.record { Self.frame(sampleBuffer, buffer) }
    }

    private static func frame(_ sampleBuffer: CMSampleBuffer, _ buffer: CVPixelBuffer) -> Frame {
        var mean = 0.0
        if let mosaic = AVCaptureDevice.Simulation.rawMosaic(of: buffer) {
            mean = mosaic.withSamples { samples in
                var sum = 0.0, n = 0.0
                for y in stride(from: 300, to: 380, by: 2) {
                    for x in stride(from: 281, to: 361, by: 2) {
                        sum += Double(samples[y * mosaic.width + x]) - Double(mosaic.blackLevel)
                        n += 1
                    }
                }
                return sum / n
            }
        }
        return Frame(time: sampleBuffer.presentationTimeStamp, rawMean: mean, ball: bgraPixel(buffer, x: 0.5, y: 0.3))
    }
}
