// A photo flow written as iOS camera code writes one (Apple's AVCam, the Flutter camera
// plugin): the photo output's settings prepared right after creating it, before it is in a
// session; a readiness coordinator that tracks each request so the shutter button can be
// disabled; the photo's file data written to a .jpg. What the user sees is checked: the
// preparation answered, the shutter went not-ready and back to ready, a JPEG file at the
// camera's full size that ffprobe decodes.
import AVFoundation
import Foundation

/// The photo side of an app: capture delegate and readiness delegate in one, as AVCam has it.
final class PhotoFlow: NSObject, AVCapturePhotoCaptureDelegate, AVCapturePhotoOutputReadinessCoordinatorDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let sessionQueue = DispatchQueue(label: "com.example.photo.session")
    private var coordinator: AVCapturePhotoOutputReadinessCoordinator?
    private let lock = NSLock()
    private var prepared: (Bool, (any Error)?)?
    private var readinessSeen: [AVCapturePhotoOutput.CaptureReadiness] = []
    private var readinessOffMain = 0
    private var photoData: Data?, photoError: (any Error)?, captureFinished = false

    override init() {
        super.init()
        // Right after creating the output, as the plugin does: Apple's header allows it
        // before the session runs, and answers once it does.
        photoOutput.setPreparedPhotoSettingsArray([AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])]) { [self] isPrepared, error in
            lock.withLock { prepared = (isPrepared, error) }
        }
    }

    func configureAndStart() {
        sessionQueue.async { [self] in
            session.beginConfiguration()
            session.sessionPreset = .photo
            if let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back),
               let input = try? AVCaptureDeviceInput(device: camera), session.canAddInput(input) {
                session.addInput(input)
            }
            if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
            photoOutput.maxPhotoQualityPrioritization = .quality
            session.commitConfiguration()
            let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: photoOutput)
            coordinator.delegate = self
            self.coordinator = coordinator
            session.startRunning()
        }
    }

    /// The shutter button.
    func takePhoto() {
        sessionQueue.async { [self] in
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            settings.photoQualityPrioritization = .balanced
            coordinator?.startTrackingCaptureRequest(using: settings)
            photoOutput.capturePhoto(with: settings, delegate: self)
            coordinator?.stopTrackingCaptureRequest(using: settings.uniqueID)
        }
    }

    func stopSession() { sessionQueue.sync { session.stopRunning() } }
    var isRunning: Bool { sessionQueue.sync { session.isRunning } }
    var preparation: (Bool, (any Error)?)? { lock.withLock { prepared } }
    var readiness: [AVCapturePhotoOutput.CaptureReadiness] { lock.withLock { readinessSeen } }
    /// The states told and how many calls came off the main queue, read together.
    var readinessCalls: (seen: [AVCapturePhotoOutput.CaptureReadiness], offMain: Int) { lock.withLock { (readinessSeen, readinessOffMain) } }
    var photo: (finished: Bool, data: Data?, error: (any Error)?) { lock.withLock { (captureFinished, photoData, photoError) } }

    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {
        // Apple calls this on the main queue, for the shutter button; counted where it is not.
        let onMain = Thread.isMainThread
        lock.withLock {
            readinessSeen.append(captureReadiness)
            if !onMain { readinessOffMain += 1 }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        let data = photo.fileDataRepresentation()
        lock.withLock {
            photoData = data
            photoError = error
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        lock.withLock {
            captureFinished = true
            if photoError == nil { photoError = error }
        }
    }
}

/// Prepares, starts, takes one photo and saves it; fails the run unless the user has it.
func runPhotoApp() {
    let name = "photo", began = Date()
    let flow = PhotoFlow()
    flow.configureAndStart()
    guard runMainLoop(upTo: 5, until: { flow.isRunning }) else { fail(name, "the session does not run 5 s after startRunning() was asked") }
    guard runMainLoop(upTo: 5, until: { flow.preparation != nil }), let (isPrepared, prepareError) = flow.preparation else {
        fail(name, "setPreparedPhotoSettingsArray's handler did not fire within 5 s of the session running")
    }
    guard isPrepared, prepareError == nil else { fail(name, "the prepared settings were refused (\(prepareError.map { "\($0)" } ?? "no error"))") }
    let shutter = Date()
    flow.takePhoto()
    guard runMainLoop(upTo: 5, until: { flow.photo.finished }) else { fail(name, "no didFinishCapture within 5 s of the shutter") }
    let delivered = Date().timeIntervalSince(shutter)
    let (_, data, error) = flow.photo
    if let error { fail(name, "the photo failed: \(error)") }
    guard let data, data.count > 0 else { fail(name, "the photo has no file data") }
    let url = temporaryFile("photo.jpg")
    defer { try? FileManager.default.removeItem(at: url) }
    do { try data.write(to: url) } catch { fail(name, "cannot save the photo: \(error)") }
    // A JPEG starts with SOI and a marker, and ends with EOI.
    guard data.starts(with: [0xFF, 0xD8, 0xFF]), data.suffix(2).elementsEqual([0xFF, 0xD9]) else {
        fail(name, "the photo file is not a JPEG (starts \(data.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")))")
    }
    let format = flow.session.inputs.compactMap { ($0 as? AVCaptureDeviceInput)?.device }.first?.activeFormat.formatDescription.dimensions
    guard let picture = Probe(url)?.video, picture.frames == 1 else { fail(name, "ffprobe cannot decode the photo file") }
    guard let format, picture.width == Int(format.width), picture.height == Int(format.height) else {
        fail(name, "the photo is \(picture.width)x\(picture.height), the camera's format \(format.map { "\($0.width)x\($0.height)" } ?? "unknown")")
    }
    // The shutter button went not-ready while the photo was taken, then ready again.
    runMainLoop(upTo: 2, until: { flow.readiness.last == .ready })
    let (readiness, offMain) = flow.readinessCalls
    guard readiness.contains(where: { $0 != .ready }), readiness.last == .ready else {
        fail(name, "the readiness coordinator told \(readiness.map(\.rawValue)), not a not-ready state then ready")
    }
    flow.stopSession()
    print(String(format: "consumer: photo: prepared settings answered true; a %dx%d JPEG of %d KB, %.2f s after the shutter; readiness %@ (%d of %d calls off the main queue, where iOS makes them); %.1f s in all",
                 picture.width, picture.height, data.count / 1024, delivered, readiness.map { "\($0.rawValue)" }.joined(separator: "→"),
                 offMain, readiness.count, Date().timeIntervalSince(began)))
}
