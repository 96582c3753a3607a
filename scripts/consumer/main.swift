// Captures from the default simulated camera at 1280x720 in real time, as an iOS app would,
// and fails (exit 1) if the session dropped a frame or delivered fewer than real time gives.
import AVFoundation
import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import QuartzCore
import Synchronization

// AVCam's CaptureExtensions.swift, verbatim: outside OpenCapture's package these
// conformances are retroactive, as on Apple platforms, so they must compile.
extension CMVideoDimensions: @retroactive Equatable, @retroactive Comparable {
    static let zero = CMVideoDimensions()

    public static func == (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
    }

    public static func < (lhs: CMVideoDimensions, rhs: CMVideoDimensions) -> Bool {
        lhs.width < rhs.width && lhs.height < rhs.height
    }
}

final class Counter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, Sendable {
    struct Tally { var frames = 0, drops = 0, width = 0, height = 0 }
    let tally = Mutex(Tally())
    let firstFrame = DispatchSemaphore(value: 0)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let width = CVPixelBufferGetWidth(pixels), height = CVPixelBufferGetHeight(pixels)
        let isFirst = tally.withLock {
            $0.frames += 1; $0.width = width; $0.height = height
            return $0.frames == 1
        }
        if isFirst { firstFrame.signal() }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        tally.withLock { $0.drops += 1 }
    }
}

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 5
guard let camera = AVCaptureDevice.default(for: .video) else {
    print("consumer: no default camera"); exit(1)
}
let session = AVCaptureSession()
session.sessionPreset = .hd1280x720
session.addInput(try AVCaptureDeviceInput(device: camera))
let output = AVCaptureVideoDataOutput()
let counter = Counter()
output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "consumer.frames"))
session.addOutput(output)
session.startRunning()
// The first frame marks the start: what comes after it is paced by the camera's clock.
guard counter.firstFrame.wait(timeout: .now() + 30) == .success else {
    print("consumer: no frame within 30 s"); exit(1)
}
let first = counter.tally.withLock { $0 }
usleep(UInt32(seconds * 1_000_000))
let last = counter.tally.withLock { $0 }
session.stopRunning()

let rate = 1 / camera.activeVideoMinFrameDuration.seconds
let expected = Int((seconds * rate).rounded(.down)) - 1
let frames = last.frames - first.frames, drops = last.drops
print("consumer: \(camera.localizedName) \(last.width)x\(last.height), \(frames) frames in \(seconds) s at \(rate) fps (at least \(expected) expected), \(drops) dropped")
// The other modules the AVFoundation product brings, as an app's photo code uses them.
let orientation = CGImagePropertyOrientation(rawValue: 6)
let turned = CGAffineTransform(rotationAngle: .pi / 2).isIdentity
let modules = orientation == .right && !turned && kCGImagePropertyOrientation as String == "Orientation"
exit(last.width == 1280 && last.height == 720 && drops == 0 && frames >= expected && modules ? 0 : 1)
