import Foundation
import Testing

@testable import OpenCapture

/// Appends every frame a video data output delivers to an asset writer input, as
/// NextLevel-style recorders do, counting frames the writer was not ready for.
final class WriterFeeder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let writer: AVAssetWriter
    let input: AVAssetWriterInput
    let limit: Int
    let counts = Mutex((appended: 0, notReady: 0, drops: 0, started: false))
    let done = DispatchSemaphore(value: 0)

    init(writer: AVAssetWriter, input: AVAssetWriterInput, limit: Int) {
        self.writer = writer
        self.input = input
        self.limit = limit
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let (appended, started) = counts.withLock { ($0.appended, $0.started) }
        guard appended < limit else { return }
        if !started {
            writer.startSession(atSourceTime: sampleBuffer.presentationTimeStamp)
            counts.withLock { $0.started = true }
        }
        guard input.isReadyForMoreMediaData else {
            counts.withLock { $0.notReady += 1 }
            return
        }
        input.append(sampleBuffer)
        if counts.withLock({ $0.appended += 1; return $0.appended }) == limit { done.signal() }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        counts.withLock { $0.drops += 1 }
    }
}

/// The round trip: a 1080p30 camera in real time into an H.264 asset writer. It
/// measures this machine's headroom, so it runs only when asked (OC_REALTIME_TESTS=1; see
/// docs/PERFORMANCE.md), not in the suite.
@Suite("Asset writer in real time")
struct AssetWriterRealTimeTests {
    @Test(
        "1080p30 video data output → AVAssetWriter, 60 frames: no frame dropped or refused, ffprobe counts them all",
        .enabled(if: ProcessInfo.processInfo.environment["OC_REALTIME_TESTS"] == "1", "a timing benchmark: OC_REALTIME_TESTS=1"))
    func realTime1080p() async throws {
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        camera.simulation?.pacing = .realTime
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        let url = AssetWriterFixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let settings = try #require(output.recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .mp4))
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        input.expectsMediaDataInRealTime = true
        writer.add(input)
        writer.startWriting()
        let feeder = WriterFeeder(writer: writer, input: input, limit: 60)
        output.setSampleBufferDelegate(feeder, queue: DispatchQueue(label: "test.frames"))
        session.startRunning()
        let started = ProcessInfo.processInfo.systemUptime
        let waited = feeder.done.wait(timeout: .now() + 10)
        session.stopRunning()
        await writer.finishWriting()
        let wall = ProcessInfo.processInfo.systemUptime - started
        try #require(waited == .success)
        let (appended, notReady, drops, _) = feeder.counts.withLock { $0 }
        print("1080p30 asset writer: \(appended) frames in \(wall) s, \(notReady) refused, \(drops) dropped")
        #expect(writer.status == .completed)
        #expect(notReady == 0 && drops == 0)
        let probe = try AssetWriterFixture.probe(url)
        let video = try #require(AssetWriterFixture.stream(probe, "video"))
        #expect(video["width"] as? Int == 1920 && video["height"] as? Int == 1080)
        #expect(video["nb_read_frames"] as? String == "60")
    }
}
