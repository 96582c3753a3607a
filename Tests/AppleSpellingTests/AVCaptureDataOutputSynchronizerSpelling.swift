// AVCaptureDataOutputSynchronizer.h (iOS 18 SDK), spelled as iOS code spells it.
import AVFoundation
import CoreMedia
import Foundation
import Synchronization
import Testing

/// A synchronizer delegate as an app writes it (AVCamFilter's shape).
final class SpellingSynchronizerDelegate: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    let video: AVCaptureVideoDataOutput
    let frames = Mutex<[CMTime]>([])
    init(video: AVCaptureVideoDataOutput) { self.video = video }

    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {
        guard let syncedVideo = synchronizedDataCollection.synchronizedData(for: video) as? AVCaptureSynchronizedSampleBufferData,
            !syncedVideo.sampleBufferWasDropped
        else { return }
        let time = CMSampleBufferGetPresentationTimeStamp(syncedVideo.sampleBuffer)
        frames.withLock { $0.append(time) }
    }
}

/// Touches every declaration of AVCaptureDataOutputSynchronizer.h; compiled, never called.
func spellAVCaptureDataOutputSynchronizer(
    _ video: AVCaptureVideoDataOutput, _ depth: AVCaptureDepthDataOutput, _ metadata: AVCaptureMetadataOutput, _ audio: AVCaptureAudioDataOutput,
    _ collection: AVCaptureSynchronizedDataCollection
) {
    let synchronizer: AVCaptureDataOutputSynchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [video, depth, metadata, audio])
    let outputs: [AVCaptureOutput] = synchronizer.dataOutputs
    let delegate = SpellingSynchronizerDelegate(video: video)
    synchronizer.setDelegate(delegate, queue: DispatchQueue(label: "data output queue"))
    synchronizer.setDelegate(nil, queue: nil)
    let current: (any AVCaptureDataOutputSynchronizerDelegate)? = synchronizer.delegate
    let queue: DispatchQueue? = synchronizer.delegateCallbackQueue

    let byMethod: AVCaptureSynchronizedData? = collection.synchronizedData(for: video)
    let bySubscript: AVCaptureSynchronizedData? = collection[depth]
    let count: Int = collection.count
    for data in collection {
        let timestamp: CMTime = data.timestamp
        _ = timestamp
    }
    let iterator: AVCaptureSynchronizedDataCollection.Iterator = collection.makeIterator()
    if let sample = collection[video] as? AVCaptureSynchronizedSampleBufferData {
        let buffer: CMSampleBuffer = sample.sampleBuffer
        let dropped: Bool = sample.sampleBufferWasDropped
        let reason: AVCaptureOutput.DataDroppedReason = sample.droppedReason
        _ = (buffer, dropped, reason)
    }
    if let objects = collection[metadata] as? AVCaptureSynchronizedMetadataObjectData {
        let found: [AVMetadataObject] = objects.metadataObjects
        _ = found
    }
    if let depthData = collection[depth] as? AVCaptureSynchronizedDepthData {
        let map: AVDepthData = depthData.depthData
        let dropped: Bool = depthData.depthDataWasDropped
        let reason: AVCaptureOutput.DataDroppedReason = depthData.droppedReason
        _ = (map, dropped, reason)
    }
    _ = (outputs, current, queue, byMethod, bySubscript, count, iterator)
}

@Suite("AVCaptureDataOutputSynchronizer spelling", .serialized)
struct AVCaptureDataOutputSynchronizerSpellingTests {
    @Test("a video and depth synchronizer as AVCamFilter sets it up delivers the frames, in order")
    func videoFramesArriveThroughTheSynchronizer() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        let video = AVCaptureVideoDataOutput(), depth = AVCaptureDepthDataOutput()
        session.addOutput(video)
        if session.canAddOutput(depth) { session.addOutput(depth) }
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [video, depth])
        let delegate = SpellingSynchronizerDelegate(video: video)
        synchronizer.setDelegate(delegate, queue: DispatchQueue(label: "data output queue"))
        session.startRunning()
        let deadline = Date().addingTimeInterval(20)
        while delegate.frames.withLock({ $0.count < 5 }) && Date() < deadline { usleep(1000) }
        session.stopRunning()
        withExtendedLifetime(synchronizer) {}  // an app keeps its synchronizer, which otherwise stops
        let times = delegate.frames.withLock { $0 }
        #expect(times.count >= 5, "no depth here, so frames come without waiting for it")
        #expect(times == times.sorted())
    }

    @Test("the still image output's settings are non-optional, as Apple declares them")
    func stillImageOutputSettings() {
        let still = AVCaptureStillImageOutput()
        let settings: [String: Any] = still.outputSettings
        #expect(settings[AVVideoCodecKey] as? AVVideoCodecType == .jpeg)
    }
}
