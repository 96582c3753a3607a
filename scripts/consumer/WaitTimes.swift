// The waits a user of a debug build sees (issue 30): how long `startRunning()` blocks, how
// long a photo takes from `capturePhoto` to its file data in the delegate, and how long a
// configuration block that switches to the front camera blocks, for a session with the back
// camera, the default microphone, a movie file output and a photo output. The figures are
// printed; what is checked is behaviour (the session runs, the photo comes with its data at
// the preset's size, the session runs on the front camera after the switch).
import AVFoundation
import Foundation

/// Hands the first photo's file data (or its error) to whoever waits on `done`.
final class PhotoWaiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private(set) var data: Data?
    private(set) var dimensions: CMVideoDimensions?
    private(set) var error: (any Error)?
    private(set) var deliveredAt: CFAbsoluteTime = 0

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        // The data is read here, as apps do, so encoding it counts in the wait.
        self.data = photo.fileDataRepresentation()
        self.dimensions = photo.resolvedSettings.photoDimensions
        self.error = error
        deliveredAt = CFAbsoluteTimeGetCurrent()
        done.signal()
    }
}

/// One preset's figures, in seconds, and what went wrong.
struct WaitTimes {
    var preset: AVCaptureSession.Preset
    var start = Double.nan, photo = Double.nan, cameraSwitch = Double.nan
    var problems: [String] = []

    var line: String {
        String(format: "consumer: %@: startRunning %.2f s, capturePhoto to photo data %.2f s, switch to the front camera %.2f s",
               preset.rawValue, start, photo, cameraSwitch)
    }
}

/// Seconds `body` took on the wall clock.
func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = CFAbsoluteTimeGetCurrent()
    try body()
    return CFAbsoluteTimeGetCurrent() - start
}

/// Measures the three waits at `preset` in a new session, which it stops before returning.
func measureWaits(at preset: AVCaptureSession.Preset) throws -> WaitTimes {
    var result = WaitTimes(preset: preset)
    guard let back = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back),
          let front = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front),
          let microphone = AVCaptureDevice.default(for: .audio)
    else {
        result.problems.append("no back camera, front camera or microphone")
        return result
    }
    let session = AVCaptureSession()
    session.beginConfiguration()
    session.sessionPreset = preset
    let backInput = try AVCaptureDeviceInput(device: back)
    session.addInput(backInput)
    session.addInput(try AVCaptureDeviceInput(device: microphone))
    session.addOutput(AVCaptureMovieFileOutput())
    let photoOutput = AVCapturePhotoOutput()
    session.addOutput(photoOutput)
    session.commitConfiguration()
    defer { session.stopRunning() }

    result.start = timed { session.startRunning() }
    guard session.isRunning else {
        result.problems.append("the session is not running after startRunning()")
        return result
    }

    let waiter = PhotoWaiter()
    let asked = CFAbsoluteTimeGetCurrent()
    photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
    if waiter.done.wait(timeout: .now() + 120) == .timedOut {
        result.problems.append("no photo within 120 s")
    } else {
        result.photo = waiter.deliveredAt - asked
        if let error = waiter.error { result.problems.append("the photo failed: \(error)") }
        if (waiter.data?.count ?? 0) == 0 { result.problems.append("the photo has no file data") }
        let expected = back.activeFormat.formatDescription.dimensions
        if let size = waiter.dimensions, size.width == 0 || size.width < expected.width {
            result.problems.append("the photo is \(size.width)x\(size.height), the camera's format \(expected.width)x\(expected.height)")
        }
    }

    let frontInput = try AVCaptureDeviceInput(device: front)
    result.cameraSwitch = timed {
        session.beginConfiguration()
        session.removeInput(backInput)
        if session.canAddInput(frontInput) { session.addInput(frontInput) }
        session.commitConfiguration()
    }
    let onFront = session.inputs.contains { ($0 as? AVCaptureDeviceInput)?.device == front }
    if !onFront || !session.isRunning { result.problems.append("the session does not run on the front camera after the switch") }
    return result
}
