// A pixel-buffer pipeline written as iOS recording libraries write one (NextLevel, SCRecorder,
// filter-camera apps): a video data output's frames appended to an AVAssetWriter through an
// AVAssetWriterInputPixelBufferAdaptor, the writer's session started at the first frame's
// time, finished after two seconds. What the user sees is checked: a movie ffprobe decodes,
// with every appended frame and the length recorded. It runs twice: as it is, and recording
// in Display P3 (AVVideoColorPropertiesKey), which has the writer convert every BGRA frame
// from the camera's BT.709 primaries (ffprobe reads the P3 tags).
import AVFoundation
import Foundation

/// The recording pipeline: all of its state lives on `videoQueue`, the delegate's queue.
final class PixelBufferRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    private let sessionQueue = DispatchQueue(label: "com.example.writer.session")
    private let videoQueue = DispatchQueue(label: "com.example.writer.video")
    private let writer: AVAssetWriter
    private let input: AVAssetWriterInput
    private let adaptor: AVAssetWriterInputPixelBufferAdaptor
    // On videoQueue.
    private var recording = false, appended = 0, refused = 0, notReady = 0
    private var dropped: [String: Int] = [:]
    private var first = CMTime.invalid, last = CMTime.invalid

    init(url: URL, width: Int, height: Int, displayP3: Bool) throws {
        writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        var settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: width, AVVideoHeightKey: height]
        if displayP3 {
            settings[AVVideoColorPropertiesKey] = [
                AVVideoColorPrimariesKey: AVVideoColorPrimaries_P3_D65, AVVideoTransferFunctionKey: AVVideoTransferFunction_ITU_R_709_2,
                AVVideoYCbCrMatrixKey: AVVideoYCbCrMatrix_ITU_R_709_2,
            ]
        }
        input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        input.expectsMediaDataInRealTime = true
        adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: width,
            kCVPixelBufferHeightKey as String: height,
        ])
        super.init()
        if writer.canAdd(input) { writer.add(input) }
    }

    func configureAndStart() {
        sessionQueue.async { [self] in
            session.beginConfiguration()
            session.sessionPreset = .hd1280x720
            if let camera = AVCaptureDevice.default(for: .video), let input = try? AVCaptureDeviceInput(device: camera), session.canAddInput(input) {
                session.addInput(input)
            }
            let output = AVCaptureVideoDataOutput()
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            output.alwaysDiscardsLateVideoFrames = true
            output.setSampleBufferDelegate(self, queue: videoQueue)
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            session.startRunning()
        }
    }

    func startRecording() { videoQueue.async { [self] in recording = true } }

    /// Stops appending and finishes the file; `completion` runs when it is written.
    func stopRecording(completion: @escaping @Sendable () -> Void) {
        videoQueue.async { [self] in
            recording = false
            guard writer.status == .writing else { return completion() }
            input.markAsFinished()
            writer.finishWriting(completionHandler: completion)
        }
    }

    func stopSession() { sessionQueue.sync { session.stopRunning() } }
    var counts: (appended: Int, refused: Int, notReady: Int, first: CMTime, last: CMTime) {
        videoQueue.sync { (appended, refused, notReady, first, last) }
    }
    /// Frames the output dropped while recording, by reason, as libraries log them.
    var drops: [String: Int] { videoQueue.sync { dropped } }
    var result: (status: AVAssetWriter.Status, error: (any Error)?) { videoQueue.sync { (writer.status, writer.error) } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard recording, let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        if writer.status == .unknown {
            guard writer.startWriting() else { return }
            writer.startSession(atSourceTime: time)
            first = time
        }
        guard writer.status == .writing else { return }
        // Real-time input: a frame the writer is not ready for is skipped, as libraries do.
        guard input.isReadyForMoreMediaData else { return notReady += 1 }
        if adaptor.append(pixelBuffer, withPresentationTime: time) {
            appended += 1
            last = time
        } else {
            refused += 1
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard recording, writer.status == .writing else { return }
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "no reason"
        dropped[reason, default: 0] += 1
    }
}

/// Records two seconds through the adaptor; fails the run unless the movie has every frame
/// (and, in Display P3, unless its track says so).
func runWriterApp(displayP3: Bool) {
    let name = displayP3 ? "writer (Display P3)" : "writer", began = Date()
    let url = temporaryFile("writer.mp4")
    defer { try? FileManager.default.removeItem(at: url) }
    let recorder: PixelBufferRecorder
    do { recorder = try PixelBufferRecorder(url: url, width: 1280, height: 720, displayP3: displayP3) } catch { fail(name, "cannot make the asset writer: \(error)") }
    recorder.configureAndStart()
    recorder.startRecording()
    guard runMainLoop(upTo: 5, until: { recorder.counts.appended > 0 }) else {
        fail(name, "no frame appended within 5 s of startRunning() (writer \(recorder.result.status.rawValue): \(recorder.result.error.map { "\($0)" } ?? "no error"))")
    }
    runMainLoop(upTo: 2)
    let done = DispatchSemaphore(value: 0)
    recorder.stopRecording { done.signal() }
    guard done.wait(timeout: .now() + 10) == .success else { fail(name, "finishWriting did not complete within 10 s") }
    recorder.stopSession()
    let (status, error) = recorder.result
    guard status == .completed else { fail(name, "the writer ended \(status.rawValue), not completed: \(error.map { "\($0)" } ?? "no error")") }
    let (appended, refused, notReady, first, last) = recorder.counts
    guard let movie = Probe(url), let video = movie.video else { fail(name, "ffprobe cannot read a video stream in \(url.lastPathComponent)") }
    // Every frame the adaptor took is in the file, at the size written.
    guard video.frames == appended else { fail(name, "the movie decodes to \(video.frames) frames, \(appended) were appended") }
    guard video.width == 1280, video.height == 720 else { fail(name, "the movie is \(video.width)x\(video.height), 1280x720 written") }
    if displayP3, video.primaries != "smpte432" { fail(name, "the movie's primaries are \(video.primaries ?? "untagged"), not Display P3 (smpte432)") }
    let span = (last - first).seconds
    guard span > 1.5, abs(movie.duration - span) < 0.2 else { fail(name, "the movie lasts \(movie.duration) s, its frames span \(span) s") }
    let drops = recorder.drops.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print(String(format: "consumer: %@: %@ %dx%d, %d frames appended (%d refused, %d skipped while the writer was not ready, dropped by the output: %@), %.2f s; ffprobe decodes all of them; %.1f s in all",
                 name, video.codec, video.width, video.height, appended, refused, notReady, drops.isEmpty ? "none" : drops, movie.duration,
                 Date().timeIntervalSince(began)))
}
