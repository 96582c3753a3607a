// Seed 003's capture walkthrough in Swift, written as an iOS developer writes it:
// configure the session, pick the back or front camera, deliver f420 frames on a serial
// queue in portrait with mirroring for the front camera, show a preview layer, run, switch
// cameras inside beginConfiguration/commitConfiguration, and drop to 15 fps.
// Builds unchanged on iOS and on Linux with OpenCapture.
import AVFoundation

final class VideoCapture: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let captureSession = AVCaptureSession()
    let captureOutput = AVCaptureVideoDataOutput()
    let outputQueue = DispatchQueue(label: "ACVideoCaptureOutputQueue")
    var captureInput: AVCaptureDeviceInput?
    /// The seed's simple preview. On iOS it goes into a view's layer; here nothing shows it
    /// (capture preview draws one in a terminal), but it renders all the same.
    var previewLayer: AVCaptureVideoPreviewLayer?
    private let lock = NSLock()
    private var frames: [(width: Int, height: Int, format: OSType, time: CMTime)] = []

    func configure(front isFront: Bool) throws {
        // Ask for 1280x720 if the session can give it.
        let preset = AVCaptureSession.Preset.hd1280x720
        if captureSession.canSetSessionPreset(preset) {
            captureSession.sessionPreset = preset
        }

        // Find the camera facing the way we want.
        let position: AVCaptureDevice.Position = isFront ? .front : .back
        let discovery = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified)
        guard let device = discovery.devices.first(where: { $0.position == position }) else {
            throw NSError(domain: "VideoCapture", code: 1, userInfo: [NSLocalizedDescriptionKey: "No camera at \(position)"])
        }
        let input = try AVCaptureDeviceInput(device: device)

        // Planar full-range 4:2:0 frames on a serial queue; late frames are dropped.
        captureOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8PlanarFullRange]
        captureOutput.setSampleBufferDelegate(self, queue: outputQueue)
        captureOutput.alwaysDiscardsLateVideoFrames = true

        if captureSession.canAddInput(input) {
            captureSession.addInput(input)
            captureInput = input
        }
        if captureSession.canAddOutput(captureOutput) {
            captureSession.addOutput(captureOutput)
        }
        orientConnection(for: device)

        // The preview follows the session's camera, also across camera switches.
        let layer = AVCaptureVideoPreviewLayer(session: captureSession)
        layer.videoGravity = .resizeAspectFill
        layer.frame = CGRect(x: 0, y: 0, width: 360, height: 640)  // a portrait view's bounds
        previewLayer = layer
    }

    /// Portrait, and mirrored for the front camera so the picture reads like a mirror.
    func orientConnection(for device: AVCaptureDevice) {
        guard let connection = captureOutput.connection(with: .video) else { return }
        connection.videoOrientation = .portrait
        if connection.isVideoMirroringSupported {
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = device.position == .front
        }
    }

    func switchCamera() throws {
        guard let currentInput = captureInput else { return }
        let newPosition: AVCaptureDevice.Position = currentInput.device.position == .back ? .front : .back
        let discovery = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: newPosition)
        guard let device = discovery.devices.first else { return }
        let newInput = try AVCaptureDeviceInput(device: device)
        captureSession.beginConfiguration()
        captureSession.removeInput(currentInput)
        if captureSession.canAddInput(newInput) {
            captureSession.addInput(newInput)
            captureInput = newInput
        } else {
            captureSession.addInput(currentInput)
        }
        captureSession.commitConfiguration()
        orientConnection(for: device)
    }

    func setFrameRate(_ fps: Int32) throws {
        guard let device = captureInput?.device,
            let range = device.activeFormat.videoSupportedFrameRateRanges.first,
            Float64(fps) <= range.maxFrameRate, Float64(fps) >= range.minFrameRate
        else { return }
        try device.lockForConfiguration()
        device.activeVideoMinFrameDuration = CMTimeMake(value: 1, timescale: fps)
        device.activeVideoMaxFrameDuration = CMTimeMake(value: 1, timescale: fps)
        device.unlockForConfiguration()
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let frame = (
            CVPixelBufferGetWidth(pixelBuffer), CVPixelBufferGetHeight(pixelBuffer),
            CVPixelBufferGetPixelFormatType(pixelBuffer), CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        )
        lock.withLock { frames.append(frame) }
    }

    /// Waits (up to 10 s) until a frame has arrived since the last `takeFrames()`: after a
    /// camera switch, the new camera's first frame, however busy the machine.
    func waitForFirstFrame() {
        for _ in 0..<1000 where lock.withLock({ frames.isEmpty }) {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func takeFrames() -> [(width: Int, height: Int, format: OSType, time: CMTime)] {
        lock.withLock {
            defer { frames.removeAll() }
            return frames
        }
    }
}

func report(_ label: String, _ frames: [(width: Int, height: Int, format: OSType, time: CMTime)]) {
    guard let first = frames.first, let last = frames.last, frames.count > 1 else {
        print("\(label): \(frames.count) frames")
        return
    }
    let fps = Double(frames.count - 1) / (last.time - first.time).seconds
    // The newest frame's size: a frame the camera made before a change of orientation
    // (switchCamera orients the new connection after commitConfiguration) may still come first.
    print("\(label): \(frames.count) frames of \(last.width)x\(last.height), \(String(format: "%.1f", fps)) fps")
}

let capture = VideoCapture()
let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 1.0
do {
    try capture.configure(front: false)
    capture.captureSession.startRunning()
    Thread.sleep(forTimeInterval: seconds)
    report("back camera, portrait", capture.takeFrames())

    try capture.switchCamera()
    _ = capture.takeFrames()
    capture.waitForFirstFrame()
    Thread.sleep(forTimeInterval: seconds)
    report("front camera, portrait, mirrored", capture.takeFrames())

    try capture.setFrameRate(15)
    Thread.sleep(forTimeInterval: 0.2)
    _ = capture.takeFrames()
    Thread.sleep(forTimeInterval: seconds)
    report("front camera at 15 fps", capture.takeFrames())
    if let layer = capture.previewLayer {
        print("preview: \(Int(layer.bounds.width))x\(Int(layer.bounds.height)), previewing: \(layer.isPreviewing)")
    }
    capture.captureSession.stopRunning()
} catch {
    print("Capture failed: \(error)")
    exit(1)
}
