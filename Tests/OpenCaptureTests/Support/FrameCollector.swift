import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// A video data output's delegate for tests: records each frame's timing, size, format and
/// metadata, and each drop's reason, into a `FrameLog` (the collector every sink of the
/// tests shares), keeping the pixels of only the newest `keptPixels` frames.
final class FrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame: Sendable {
        var time: CMTime
        var duration: CMTime
        var width: Int
        var height: Int
        var pixelFormat: OSType
        var sequence: Int64
        var deviceID: String?
        var metadata: FrameMetadata?
    }

    let queue = DispatchQueue(label: "test.frames")
    let log = FrameLog<Frame, String>()
    /// Seconds the delegate spends on each frame (to simulate slow processing). Tests set
    /// it while frames arrive, so it is kept in an atomic (as the bits of the Double).
    var delay: TimeInterval {
        get { TimeInterval(bitPattern: delayBits.load(ordering: .relaxed)) }
        set { delayBits.store(newValue.bitPattern, ordering: .relaxed) }
    }
    private let delayBits = Atomic<UInt64>(0)
    let frameAfterStopFlag = Atomic<Bool>(false)
    var frameAfterStop: Bool { frameAfterStopFlag.load(ordering: .acquiring) }
    let stopped = Atomic<Bool>(false)
    /// Every frame and drop in the order the delegate heard them, for `FrameAccount`.
    private let timeline = Mutex<[FrameAccount.Event]>([])

    /// Keeps every sample buffer (to starve the pool) until `releaseHeldBuffers()`.
    var holdsBuffers: Bool {
        get { log.holdsBuffers }
        set { log.holdsBuffers = newValue }
    }

    /// How many of the newest frames keep their pixel buffer (0 by default; more than a
    /// couple would run the output's pool dry).
    var keptPixels: Int {
        get { log.keptPixels }
        set { log.keptPixels = newValue }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if stopped.load(ordering: .acquiring) { frameAfterStopFlag.store(true, ordering: .releasing) }
        let image = sampleBuffer.imageBuffer!
        log.record(
            {
                Frame(
                    time: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.duration, width: CVPixelBufferGetWidth(image),
                    height: CVPixelBufferGetHeight(image), pixelFormat: CVPixelBufferGetPixelFormatType(image),
                    sequence: sampleBuffer.metadata?.sequence ?? -1,
                    deviceID: (connection.inputPorts.first?.input as? AVCaptureDeviceInput)?.device.uniqueID,
                    metadata: sampleBuffer.metadata)
            }, pixels: image, holding: sampleBuffer)
        timeline.withLock { $0.append(.frame(sampleBuffer.presentationTimeStamp)) }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "?"
        log.recordDrop(reason)
        timeline.withLock { $0.append(.drop(sampleBuffer.presentationTimeStamp, reason: reason)) }
    }

    var frames: [Frame] { log.frames }
    var drops: [String] { log.drops }
    var frameCount: Int { log.frameCount }
    func releaseHeldBuffers() { log.releaseHeldBuffers() }
    func reset() {
        log.reset()
        timeline.withLock { $0.removeAll() }
    }

    /// Frames and drops heard so far, in order (see `FrameAccount`).
    var events: [FrameAccount.Event] { timeline.withLock { $0 } }

    /// The newest frame whose pixels are kept, with them.
    var newestFrameWithPixels: (frame: Frame, buffer: CVPixelBuffer)? {
        guard let (index, buffer) = log.newestPixels else { return nil }
        return (log.frames[index], buffer)
    }

    /// Waits for `count` frames and returns exactly the first `count`, or fails the test.
    @discardableResult
    func waitForFrames(_ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) throws -> [Frame] {
        try log.waitForFrames(count, within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `count` more frames than have arrived; returns every frame by then.
    @discardableResult
    func waitForMoreFrames(_ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) throws -> [Frame] {
        try log.waitForMoreFrames(count, within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `count` drops and returns exactly the first `count`, or fails the test.
    @discardableResult
    func waitForDrops(_ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try log.waitForDrops(count, within: timeout, sourceLocation: sourceLocation)
    }
}
