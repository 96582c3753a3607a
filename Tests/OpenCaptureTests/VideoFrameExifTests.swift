import Foundation
import Synchronization
import Testing
import ImageIO
import TestSupport

@testable import OpenCapture

/// The Exif dictionary an iPhone attaches to each video frame
/// (`CMGetAttachment(sampleBuffer, key: kCGImagePropertyExifDictionary, …)`), which apps read
/// for the ISO, exposure time and scene brightness of what they see.
@Suite("Video frames carry their Exif attachment", .serialized)
struct VideoFrameExifTests {
    /// Each frame's time and its `{Exif}` attachment, as an app reads them.
    final class ExifCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "test.exif")
        private let log = Mutex<[(time: CMTime, exif: [String: Any], inDictionary: Bool)]>([])

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let exif = CMGetAttachment(sampleBuffer, key: kCGImagePropertyExifDictionary, attachmentModeOut: nil) as? [String: Any] ?? [:]
            let all = CMCopyDictionaryOfAttachments(allocator: nil, target: sampleBuffer, attachmentMode: kCMAttachmentMode_ShouldPropagate)
            let overlay = sampleBuffer.attachments[.init("{Exif}")] != nil
            log.withLock { $0.append((sampleBuffer.presentationTimeStamp, exif, all?["{Exif}"] != nil && overlay)) }
        }

        var frames: [(time: CMTime, exif: [String: Any], inDictionary: Bool)] { log.withLock { $0 } }
    }

    static func rig(_ collector: ExifCollector) throws -> TestRig {
        let rig = try TestRig(preset: .hd1280x720)
        rig.output.setSampleBufferDelegate(collector, queue: collector.queue)
        return rig
    }

    @Test("a custom exposure: the frames after it say its time and ISO, manual mode, the lens's f-number and the frame's size")
    func customExposure() throws {
        let collector = ExifCollector()
        let rig = try Self.rig(collector)
        rig.session.startRunning()
        defer {
            rig.stop()
            // The simulated camera is shared by the suites: auto exposure again.
            try? rig.device.lockForConfiguration()
            rig.device.exposureMode = .continuousAutoExposure
            rig.device.unlockForConfiguration()
        }
        eventually("frames") { collector.frames.count >= 3 }
        let synced = Mutex<CMTime?>(nil)
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 60), iso: 200) { time in synced.withLock { $0 = time } }
        rig.device.unlockForConfiguration()
        eventually("the exposure applied") { synced.withLock { $0 } != nil }
        let time = try #require(synced.withLock { $0 })
        eventually("frames after it") { collector.frames.contains { $0.time > time } }
        let before = try #require(collector.frames.first)
        let frame = try #require(collector.frames.first { $0.time == time })
        let exif = frame.exif
        #expect(abs((exif["ExposureTime"] as? Double ?? 0) - 1.0 / 60) < 1e-6, "\(exif)")
        #expect(exif["ISOSpeedRatings"] as? [Int] == [200])
        #expect(exif["ExposureMode"] as? Int == 1 && before.exif["ExposureMode"] as? Int == 0)
        #expect(abs((exif["ShutterSpeedValue"] as? Double ?? 0) - log2(60)) < 1e-6)
        #expect(exif["FNumber"] as? Double == Double(rig.device.lensAperture))
        #expect(exif["PixelXDimension"] as? Int == 1280 && exif["PixelYDimension"] as? Int == 720)
        #expect(exif["ColorSpace"] as? Int == 1)
        #expect(frame.inDictionary, "CMCopyDictionaryOfAttachments and the attachments overlay list {Exif}")
    }

    @Test("the Exif is made when first read: an app's own value wins, a removed one stays removed, a recycled buffer starts without it")
    func exifIsMadeWhenRead() throws {
        var metadata = FrameMetadata()
        metadata.exposureDuration = 0.01
        metadata.iso = 400
        metadata.width = 64
        metadata.height = 48
        let sample = CMSampleBuffer(imageBuffer: nil, formatDescription: nil, presentationTimeStamp: .zero, duration: .invalid, metadata: metadata)
        sample.attachExifOfItsFrame()
        let exif = try #require(CMGetAttachment(sample, key: "{Exif}", attachmentModeOut: nil) as? [String: Any])
        #expect(exif["ISOSpeedRatings"] as? [Int] == [400] && exif["ExposureTime"] as? Double == 0.01)

        sample.attachExifOfItsFrame()
        CMRemoveAttachment(sample, key: "{Exif}")
        #expect(CMGetAttachment(sample, key: "{Exif}", attachmentModeOut: nil) == nil)

        sample.attachExifOfItsFrame()
        CMSetAttachment(sample, key: "{Exif}", value: ["Mine": 1], attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect((CMGetAttachment(sample, key: "{Exif}", attachmentModeOut: nil) as? [String: Int]) == ["Mine": 1])

        sample.attachExifOfItsFrame()
        sample.reuse(imageBuffer: nil, formatDescription: nil, presentationTimeStamp: .zero, duration: .invalid, metadata: metadata)
        #expect(CMGetAttachment(sample, key: "{Exif}", attachmentModeOut: nil) == nil)
    }

    @Test("BrightnessValue follows the light: ten times the lux is log2(10) more, whatever exposure auto exposure chose")
    func brightnessFollowsTheLight() throws {
        let collector = ExifCollector()
        let rig = try Self.rig(collector)
        let simulation = try #require(rig.device.simulation)
        simulation.sceneIlluminance = 100
        // Ten times the light from the second second on.
        simulation.scheduleSceneIlluminance(1000, atTime: 2)
        rig.session.startRunning()
        defer { rig.stop() }
        eventually("four seconds of frames", within: .seconds(60)) { (collector.frames.last?.time.seconds ?? 0) - (collector.frames.first?.time.seconds ?? 0) > 4 }
        let frames = collector.frames
        let start = try #require(frames.first).time.seconds
        let dim = frames.filter { $0.time.seconds - start > 1.0 && $0.time.seconds - start < 1.9 }.compactMap { $0.exif["BrightnessValue"] as? Double }
        let bright = frames.filter { $0.time.seconds - start > 3.5 }.compactMap { $0.exif["BrightnessValue"] as? Double }
        let dimMean = dim.reduce(0, +) / Double(max(1, dim.count)), brightMean = bright.reduce(0, +) / Double(max(1, bright.count))
        #expect(!dim.isEmpty && !bright.isEmpty)
        #expect(abs(brightMean - dimMean - log2(10)) < 0.5, "Bv \(dimMean) at 100 lux, \(brightMean) at 1000 lux")
        // The ISO and exposure time auto exposure chose are what the frames say.
        let last = try #require(frames.last).exif
        #expect((last["ISOSpeedRatings"] as? [Int])?.first ?? 0 > 0 && (last["ExposureTime"] as? Double ?? 0) > 0)
        #expect(last["ExposureMode"] as? Int == 0)
    }
}
