import Foundation
import Synchronization
@testable import OpenCapture

/// A delegate that records what a video data output delivers, for tests.
final class FrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Frame {
        var time: CMTime
        var duration: CMTime
        var width: Int
        var height: Int
        var pixelFormat: OSType
        var sequence: Int64
        var deviceID: String?
        var buffer: CVPixelBuffer?
        var metadata: FrameMetadata?
    }

    let queue = DispatchQueue(label: "test.frames")
    private let state = Mutex<(frames: [Frame], drops: [String], holding: [CMSampleBuffer])>(([], [], []))
    /// Seconds the delegate spends on each frame (to simulate slow processing).
    var delay: TimeInterval = 0
    /// Keeps every sample buffer (to starve the pool).
    var holdsBuffers = false
    /// Keeps the pixel buffers of the frames (for pixel checks).
    var keepsPixels = false
    let frameAfterStopFlag = Atomic<Bool>(false)
    var frameAfterStop: Bool { frameAfterStopFlag.load(ordering: .acquiring) }
    let stopped = Atomic<Bool>(false)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if stopped.load(ordering: .acquiring) { frameAfterStopFlag.store(true, ordering: .releasing) }
        let image = sampleBuffer.imageBuffer!
        let frame = Frame(
            time: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.duration, width: CVPixelBufferGetWidth(image),
            height: CVPixelBufferGetHeight(image), pixelFormat: CVPixelBufferGetPixelFormatType(image),
            sequence: sampleBuffer.metadata?.sequence ?? -1,
            deviceID: (connection.inputPorts.first?.input as? AVCaptureDeviceInput)?.device.uniqueID,
            buffer: keepsPixels ? image : nil, metadata: sampleBuffer.metadata)
        state.withLock {
            $0.frames.append(frame)
            if holdsBuffers { $0.holding.append(sampleBuffer) }
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "?"
        state.withLock { $0.drops.append(reason) }
    }

    var frames: [Frame] { state.withLock { $0.frames } }
    var drops: [String] { state.withLock { $0.drops } }
    func releaseHeldBuffers() { state.withLock { $0.holding.removeAll() } }
    func reset() { state.withLock { $0 = ([], [], []) } }

    /// Waits until `count` frames arrived or `timeout` passed; returns the frames.
    @discardableResult
    func waitForFrames(_ count: Int, timeout: TimeInterval = 20) -> [Frame] {
        let deadline = Date().addingTimeInterval(timeout)
        while frames.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return frames
    }

    func waitForDrops(_ count: Int, timeout: TimeInterval = 20) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while drops.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return drops
    }
}

/// A session on a simulated camera in virtual time with one video data output.
struct TestRig {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    let collector = FrameCollector()
    let device: AVCaptureDevice
    let input: AVCaptureDeviceInput

    init(uniqueID: String = "sim:back-wide", preset: AVCaptureSession.Preset = .hd1280x720,
         pixelFormat: OSType = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, pacing: AVCaptureDevice.Simulation.Pacing = .virtual) throws {
        device = AVCaptureDevice(uniqueID: uniqueID)!
        device.simulation?.pacing = pacing
        device.simulation?.seed = 7
        input = try AVCaptureDeviceInput(device: device)
        session.sessionPreset = preset
        session.addInput(input)
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat]
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
    }

    var connection: AVCaptureConnection { output.connection(with: .video)! }

    func stop() {
        session.stopRunning()
        collector.stopped.store(true, ordering: .releasing)
        device.simulation?.pacing = .realTime
    }
}

/// Reads a BGRA pixel at a relative position.
func bgraPixel(_ buffer: CVPixelBuffer, x: Double, y: Double) -> (b: Int, g: Int, r: Int) {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
    let px = Int(x * Double(CVPixelBufferGetWidth(buffer)))
    let py = Int(y * Double(CVPixelBufferGetHeight(buffer)))
    let pointer = base + py * CVPixelBufferGetBytesPerRow(buffer) + px * 4
    return (Int(pointer[0]), Int(pointer[1]), Int(pointer[2]))
}
