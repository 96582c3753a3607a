import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records a recording's callbacks.
final class RecordingRecorder: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    let started = Mutex<[URL]>([])
    let finished = Mutex<[(URL, (any Error)?)]>([])
    let done = Completion<Void>("the end of the recording")

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        started.withLock { $0.append(fileURL) }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        finished.withLock { $0.append((outputFileURL, error)) }
        done.fulfil()
    }

    func wait(sourceLocation: SourceLocation = #_sourceLocation) throws { try done.wait(sourceLocation: sourceLocation) }
    var error: AVError? { finished.withLock { $0.last?.1 as? AVError } }
}

/// ffprobe's view of a movie file.
struct Probe {
    var codec: String
    var width: Int
    var height: Int
    var frames: Int
    var duration: Double
    var rotation: Int?

    init?(_ url: URL) {
        guard
            let json = try? FFprobe.json(
                url.path,
                ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,nb_read_frames:stream_side_data=rotation:format=duration"]),
            let stream = (json["streams"] as? [[String: Any]])?.first
        else { return nil }
        codec = stream["codec_name"] as? String ?? ""
        width = stream["width"] as? Int ?? 0
        height = stream["height"] as? Int ?? 0
        frames = Int(stream["nb_read_frames"] as? String ?? "") ?? 0
        duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        rotation = (stream["side_data_list"] as? [[String: Any]])?.first?["rotation"] as? Int
    }
}

@Suite("AVCaptureMovieFileOutput", .serialized)
struct MovieFileOutputTests {
    static func rig(_ output: AVCaptureMovieFileOutput, rotation: CGFloat = 0) throws -> TestRig {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.addOutput(output)
        output.connection(with: .video)?.videoRotationAngle = rotation
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        return rig
    }

    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("movie-\(UUID().uuidString)-\(name)")
    }

    @Test("defaults")
    func defaults() {
        let output = AVCaptureMovieFileOutput()
        #expect(output.movieFragmentInterval == CMTime(value: 10, timescale: 1))
        #expect(!output.maxRecordedDuration.isValid)
        #expect(output.maxRecordedFileSize == 0)
        #expect(!output.isRecording && output.outputFileURL == nil)
        #expect(output.availableVideoCodecTypes == [.hevc, .h264], "Debian's FFmpeg has libx265")
    }

    @Test("a duration limit ends the recording with a complete, playable H.264 file")
    func maximumDuration() throws {
        let output = AVCaptureMovieFileOutput()
        output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
        output.movieFragmentInterval = CMTime(value: 1, timescale: 2)
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let url = Self.temporaryURL("limit.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        #expect(output.isRecording)
        try delegate.wait()
        #expect(delegate.started.withLock { $0 } == [url])
        #expect(delegate.finished.withLock { $0.count } == 1)
        let error = try #require(delegate.error)
        #expect(error.code == .maximumDurationReached)
        #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
        #expect(!output.isRecording)
        #expect(abs(output.recordedDuration.seconds - 1) < 0.05)
        #expect(output.recordedFileSize > 10_000)
        let probe = try #require(Probe(url))
        #expect(probe.codec == "h264" && probe.width == 640 && probe.height == 480)
        #expect((29...31).contains(probe.frames), "\(probe.frames) frames")
    }

    @Test("stopRecording finishes once without error; the rotation goes into the track matrix")
    func stopAndRotation() throws {
        let output = AVCaptureMovieFileOutput()
        let rig = try Self.rig(output, rotation: 90)
        defer { rig.stop() }
        let url = Self.temporaryURL("rotated.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        eventually("15 frames recorded") { output.recordedFrameCount >= 15 }
        output.stopRecording()
        try delegate.wait()
        #expect(delegate.finished.withLock { $0.count } == 1)
        #expect(delegate.finished.withLock { $0.first?.1 } == nil)
        let probe = try #require(Probe(url))
        #expect(probe.width == 640 && probe.height == 480, "pixels are not rotated")
        #expect(probe.rotation.map(abs) == 90, "players rotate by the display matrix")
        #expect(probe.frames >= 15)
    }

    /// The movie connection mirrors while the data output does not, so the device cannot
    /// flip the frames for both: the recorder flips the movie's pixels itself.
    @Test("a mirrored movie connection records mirrored pixels")
    func mirroredRecording() throws {
        let output = AVCaptureMovieFileOutput()
        let rig = try TestRig(preset: .vga640x480)
        rig.session.addOutput(output)
        let movieConnection = try #require(output.connection(with: .video))
        movieConnection.automaticallyAdjustsVideoMirroring = false
        movieConnection.isVideoMirrored = true
        rig.device.simulation?.pacing = .realTime
        rig.session.startRunning()
        defer { rig.stop() }
        // Let auto exposure settle, so the movie's first frame looks like the last data frame.
        try rig.collector.waitForFrames(30)
        let url = Self.temporaryURL("mirrored.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        eventually("5 frames recorded") { output.recordedFrameCount >= 5 }
        output.stopRecording()
        try delegate.wait()
        // One data frame with its pixels (keeping more would drain the camera's buffer pool).
        rig.collector.keptPixels = 1
        try rig.collector.waitForMoreFrames(1)
        let (data, frame) = try #require(rig.collector.newestFrameWithPixels)
        #expect(data.metadata?.isMirroredByDevice == false)
        // The movie's first frame, decoded by ffmpeg, against the data output's frame as is
        // and flipped: the chart and markers make the two differ a lot.
        let movie = [UInt8](try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]).stdoutData)
        try #require(movie.count == 640 * 480)
        CVPixelBufferLockBaseAddress(frame, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(frame, .readOnly) }
        let luma = CVPixelBufferGetBaseAddressOfPlane(frame, 0)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(frame, 0)
        var same = 0.0, flipped = 0.0
        for y in 0..<480 {
            for x in 0..<640 {
                let m = Double(movie[y * 640 + x])
                same += abs(m - Double(luma[y * stride + x]))
                flipped += abs(m - Double(luma[y * stride + 639 - x]))
            }
        }
        let movieMean = Double(movie.reduce(0) { $0 + Int($1) }) / 307_200
        var frameSum = 0
        for y in 0..<480 { for x in 0..<640 { frameSum += Int(luma[y * stride + x]) } }
        #expect(flipped * 4 < same, "mean difference flipped \(flipped / 307_200), as is \(same / 307_200), means \(movieMean) \(Double(frameSum) / 307_200)")
    }

    @Test("HEVC when asked: availableVideoCodecTypes lists it, the file is HEVC; unknown codecs raise")
    func hevcRecording() throws {
        let output = AVCaptureMovieFileOutput()
        #expect(output.availableVideoCodecTypes.contains(.hevc))
        output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let connection = try #require(output.connection(with: .video))
        output.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: connection)
        #expect(output.outputSettings(for: connection)[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
        let url = Self.temporaryURL("hevc.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .maximumDurationReached)
        let probe = try #require(Probe(url))
        #expect(probe.codec == "hevc" && probe.width == 640 && probe.height == 480)
        #expect(probe.frames >= 14)
    }

    @Test("a codec the output cannot record raises NSInvalidArgumentException")
    func unsupportedCodecRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
            let output = AVCaptureMovieFileOutput()
            session.addOutput(output)
            output.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.jpeg], for: output.connection(with: .video)!)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'NSInvalidArgumentException'") && text.contains("Unsupported codec jpeg - use availableVideoCodecTypes"), "\(text)")
    }

    @Test("an existing file ends the request with fileAlreadyExists and no start")
    func existingFile() throws {
        let output = AVCaptureMovieFileOutput()
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let url = Self.temporaryURL("exists.mp4")
        try Data("keep me".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.started.withLock { $0 }.isEmpty)
        #expect(delegate.error?.code == .fileAlreadyExists)
        #expect(try Data(contentsOf: url) == Data("keep me".utf8), "nothing is lost")
    }

    @Test("a file-size limit ends the recording with maximumFileSizeReached")
    func maximumFileSize() throws {
        let output = AVCaptureMovieFileOutput()
        output.maxRecordedFileSize = 60_000
        output.movieFragmentInterval = CMTime(value: 1, timescale: 4)
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let url = Self.temporaryURL("size.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .maximumFileSizeReached)
        #expect(Probe(url)?.codec == "h264")
    }

    @Test("pausing leaves the paused frames out and the file continuous")
    func pauseAndResume() throws {
        let output = AVCaptureMovieFileOutput()
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let url = Self.temporaryURL("pause.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        eventually("10 frames recorded") { output.recordedFrameCount >= 10 }
        output.pauseRecording()
        #expect(output.isRecordingPaused)
        let paused = output.recordedFrameCount
        // The camera goes on for 10 frames (a third of a second) while the movie does not.
        try rig.collector.waitForMoreFrames(10)
        #expect(output.recordedFrameCount <= paused + 3)
        output.resumeRecording()
        let resumed = output.recordedFrameCount
        eventually("10 more frames recorded") { output.recordedFrameCount >= resumed + 10 }
        output.stopRecording()
        try delegate.wait()
        let frames = output.recordedFrameCount
        let probe = try #require(Probe(url))
        #expect(probe.frames == frames)
        #expect(abs(output.recordedDuration.seconds - Double(frames) / 30) < 0.1, "no gap where the pause was")
    }

    @Test("free disk space below minFreeDiskSpaceLimit ends the recording with diskFull, file complete")
    func minimumFreeSpace() throws {
        let output = AVCaptureMovieFileOutput()
        output.minFreeDiskSpaceLimit = Int64.max / 2
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let url = Self.temporaryURL("space.mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .diskFull)
        #expect(delegate.error?.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
        #expect(Probe(url)?.codec == "h264")
    }

    @Test("starting a new recording while recording finishes the first file and records the second")
    func switchFiles() throws {
        let output = AVCaptureMovieFileOutput()
        let rig = try Self.rig(output)
        defer { rig.stop() }
        let first = Self.temporaryURL("first.mp4"), second = Self.temporaryURL("second.mp4")
        defer { [first, second].forEach { try? FileManager.default.removeItem(at: $0) } }
        let firstDelegate = RecordingRecorder(), secondDelegate = RecordingRecorder()
        output.startRecording(to: first, recordingDelegate: firstDelegate)
        eventually("10 frames recorded") { output.recordedFrameCount >= 10 }
        output.startRecording(to: second, recordingDelegate: secondDelegate)
        try firstDelegate.wait()
        #expect(firstDelegate.finished.withLock { $0.count } == 1 && firstDelegate.error == nil)
        eventually("10 frames recorded to the second file") { output.recordedFrameCount >= 10 }
        #expect(output.outputFileURL == second && output.isRecording)
        output.stopRecording()
        try secondDelegate.wait()
        #expect((Probe(first)?.frames ?? 0) >= 10)
        #expect((Probe(second)?.frames ?? 0) >= 1)
    }

    @Test("one movie output per session; recording to a non-file URL raises")
    func rules() async throws {
        let session = AVCaptureSession()
        session.addOutput(AVCaptureMovieFileOutput())
        #expect(!session.canAddOutput(AVCaptureMovieFileOutput()))
        await #expect(processExitsWith: .signal(SIGABRT)) {
            final class Quiet: NSObject, AVCaptureFileOutputRecordingDelegate {
                func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {}
            }
            AVCaptureMovieFileOutput().startRecording(to: URL(string: "https://example.invalid/movie.mp4")!, recordingDelegate: Quiet())
        }
    }
}
