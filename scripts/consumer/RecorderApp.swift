// A movie recorder written as open-source iOS camera libraries write one (SwiftyCam,
// NextLevel, the Flutter camera plugin): every session call on its own serial queue, the
// session configured and started there, recording started two seconds after startRunning()
// was asked for, and a camera flip inside begin/commitConfiguration. What the user sees is
// checked: a movie ffprobe decodes, of the length recorded, with sound; then the front camera.
import AVFoundation
import Foundation

/// The recorder, as an app holds it: the UI thread calls it, it hops to `sessionQueue`.
final class MovieRecorder: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    private let sessionQueue = DispatchQueue(label: "com.example.recorder.session")
    private let movieOutput = AVCaptureMovieFileOutput()
    // Touched on sessionQueue only.
    private var videoDeviceInput: AVCaptureDeviceInput?
    // Set by the delegate (any thread), read by the UI after `finished`.
    private let lock = NSLock()
    private var finishedError: (any Error)?
    private var didStart = false, didFinish = false

    func configureAndStart() {
        sessionQueue.async { [self] in
            session.beginConfiguration()
            session.sessionPreset = .high
            if let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back),
               let input = try? AVCaptureDeviceInput(device: camera), session.canAddInput(input) {
                session.addInput(input)
                videoDeviceInput = input
            }
            if let microphone = AVCaptureDevice.default(for: .audio),
               let input = try? AVCaptureDeviceInput(device: microphone), session.canAddInput(input) {
                session.addInput(input)
            }
            if session.canAddOutput(movieOutput) { session.addOutput(movieOutput) }
            session.commitConfiguration()
            session.startRunning()
        }
    }

    func startRecording(to url: URL) {
        sessionQueue.async { [self] in
            movieOutput.connection(with: .video)?.videoOrientation = .portrait
            movieOutput.startRecording(to: url, recordingDelegate: self)
        }
    }

    func stopRecording() { sessionQueue.async { [self] in movieOutput.stopRecording() } }

    /// Flips between the back and front cameras, as a flip button does.
    func switchCamera() {
        sessionQueue.async { [self] in
            guard let current = videoDeviceInput else { return }
            let position: AVCaptureDevice.Position = current.device.position == .back ? .front : .back
            guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: position),
                  let input = try? AVCaptureDeviceInput(device: camera)
            else { return }
            session.beginConfiguration()
            session.removeInput(current)
            if session.canAddInput(input) {
                session.addInput(input)
                videoDeviceInput = input
            } else {
                session.addInput(current)
            }
            session.commitConfiguration()
        }
    }

    var cameraPosition: AVCaptureDevice.Position { sessionQueue.sync { videoDeviceInput?.device.position ?? .unspecified } }
    var isRunning: Bool { sessionQueue.sync { session.isRunning } }
    func stopSession() { sessionQueue.sync { session.stopRunning() } }

    var recordingStarted: Bool { lock.withLock { didStart } }
    var outcome: (finished: Bool, error: (any Error)?) { lock.withLock { (didFinish, finishedError) } }

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        lock.withLock { didStart = true }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        lock.withLock {
            didFinish = true
            finishedError = error
        }
    }
}

/// Records two seconds, checks the movie, flips to the front camera; fails the run otherwise.
func runRecorderApp() {
    let name = "recorder", began = Date()
    let recorder = MovieRecorder()
    let url = temporaryFile("recorder.mov")
    defer { try? FileManager.default.removeItem(at: url) }
    recorder.configureAndStart()
    // The app's "record" two seconds after launch, from the main thread.
    runMainLoop(upTo: 2)
    recorder.startRecording(to: url)
    guard runMainLoop(upTo: 5, until: { recorder.recordingStarted || recorder.outcome.finished }), recorder.recordingStarted else {
        fail(name, "recording did not start within 5 s of startRecording (error: \(recorder.outcome.error.map { "\($0)" } ?? "none"))")
    }
    runMainLoop(upTo: 2)
    recorder.stopRecording()
    guard runMainLoop(upTo: 10, until: { recorder.outcome.finished }) else { fail(name, "no didFinishRecording within 10 s of stopRecording") }
    if let error = recorder.outcome.error as NSError?, error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool != true {
        fail(name, "the recording failed: \(error.localizedDescription) (\(error.code))")
    }
    guard let movie = Probe(url), let video = movie.video else { fail(name, "ffprobe cannot read a video stream in \(url.lastPathComponent)") }
    // Two seconds recorded.
    guard movie.duration > 1.5, movie.duration < 3.5 else { fail(name, "the movie lasts \(movie.duration) s for 2 s recorded") }
    // A loaded machine drops frames (the count is printed), but never adds any.
    guard video.frames > 0, Double(video.frames) <= movie.duration * 30 + 1 else {
        fail(name, "the movie decodes to \(video.frames) video frames in \(movie.duration) s at 30 fps")
    }
    guard movie.audio != nil else { fail(name, "the movie has no sound track, though the microphone was in the session") }
    let movieLine = "\(video.codec) \(video.width)x\(video.height), \(video.frames) frames, \(String(format: "%.2f", movie.duration)) s, \(movie.audio?.codec ?? "") sound"

    let flipAsked = Date()
    recorder.switchCamera()
    let position = recorder.cameraPosition   // waits for the flip, queued before it
    let flip = Date().timeIntervalSince(flipAsked)
    guard position == .front else { fail(name, "the camera is at position \(position.rawValue) after the flip, not front") }
    guard recorder.isRunning else { fail(name, "the session stopped running after the flip") }
    recorder.stopSession()
    print(String(format: "consumer: recorder: movie %@; flipped to the front camera in %.2f s; %.1f s in all",
                 movieLine, flip, Date().timeIntervalSince(began)))
}
