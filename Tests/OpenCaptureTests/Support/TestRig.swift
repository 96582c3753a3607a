import Foundation
import Testing

@testable import OpenCapture

/// A session on a simulated camera in virtual time with one video data output. It stops
/// when it goes away, so a test that fails half-way leaves nothing streaming.
final class TestRig {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    let collector = FrameCollector()
    let device: AVCaptureDevice
    let input: AVCaptureDeviceInput

    init(uniqueID: String = "sim:back-wide", preset: AVCaptureSession.Preset = .hd1280x720,
         pixelFormat: OSType = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, pacing: AVCaptureDevice.Simulation.Pacing = .virtual) throws {
        device = try #require(AVCaptureDevice(uniqueID: uniqueID))
        device.simulation?.pacing = pacing
        device.simulation?.seed = 7
        input = try AVCaptureDeviceInput(device: device)
        session.sessionPreset = preset
        session.addInput(input)
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat]
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
    }

    deinit {
        if session.isRunning { stop() }
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
