// AVCaptureFileOutput.h (iOS 18 SDK), spelled as iOS code spells it. macOS-only parts
// (AVCaptureFileOutputDelegate, AVCaptureAudioFileOutput, willFinishRecordingTo) are not
// here; neither is the orientation metadata track (see docs/ARCHITECTURE.md).
import AVFoundation
import CoreMedia
import Foundation
import Synchronization
import Testing

/// A recording delegate as an app writes it: didFinish required, the others optional.
final class SpellingRecordingDelegate: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    let events = Mutex<[String]>([])
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        events.withLock { $0.append("start") }
    }
    func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        events.withLock { $0.append("pause") }
    }
    func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        events.withLock { $0.append("resume") }
    }
    func fileOutput(
        _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?
    ) {
        events.withLock { $0.append(error == nil ? "finish" : "finish-error") }
    }
}

/// Touches every other iOS declaration of AVCaptureFileOutput.h; compiled, never called.
func spellAVCaptureFileOutput(_ url: URL) {
    let movie: AVCaptureMovieFileOutput = AVCaptureMovieFileOutput()
    let file: AVCaptureFileOutput = movie
    let delegate = SpellingRecordingDelegate()
    file.startRecording(to: url, recordingDelegate: delegate)
    file.pauseRecording()
    file.resumeRecording()
    file.stopRecording()
    let state: (URL?, Bool, Bool) = (file.outputFileURL, file.isRecording, file.isRecordingPaused)
    let recorded: (CMTime, Int64) = (file.recordedDuration, file.recordedFileSize)
    file.maxRecordedDuration = CMTime(value: 10, timescale: 1)
    file.maxRecordedFileSize = 1 << 20
    file.minFreeDiskSpaceLimit = 1 << 20
    let limits: (CMTime, Int64, Int64) = (file.maxRecordedDuration, file.maxRecordedFileSize, file.minFreeDiskSpaceLimit)
    movie.movieFragmentInterval = .invalid
    let fragment: CMTime = movie.movieFragmentInterval
    let codecs: [AVVideoCodecType] = movie.availableVideoCodecTypes
    if let connection = movie.connection(with: .video) {
        let keys: [String] = movie.supportedOutputSettingsKeys(for: connection)
        let settings: [String: Any] = movie.outputSettings(for: connection)
        movie.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.h264], for: connection)
        movie.setOutputSettings(nil, for: connection)
        _ = (keys, settings)
    }
    let spatial: (Bool, Bool) = (movie.isSpatialVideoCaptureSupported, movie.isSpatialVideoCaptureEnabled)
    movie.isSpatialVideoCaptureEnabled = false
    _ = (state, recorded, limits, fragment, codecs, spatial)
}

@Suite("AVCaptureFileOutput spelling", .serialized)
struct AVCaptureFileOutputSpellingTests {
    @Test("pauseRecording and resumeRecording tell the delegate, between start and finish")
    func pauseAndResumeAreReported() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spelling-\(UUID().uuidString).mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = SpellingRecordingDelegate()
        session.startRunning()
        movie.startRecording(to: url, recordingDelegate: delegate)
        func waitFor(_ event: String) {
            let deadline = Date().addingTimeInterval(10)
            while !delegate.events.withLock({ $0.contains(event) }) && Date() < deadline { usleep(500) }
        }
        waitFor("start")
        movie.pauseRecording()
        #expect(movie.isRecordingPaused)
        waitFor("pause")
        movie.resumeRecording()
        #expect(!movie.isRecordingPaused)
        waitFor("resume")
        movie.stopRecording()
        waitFor("finish")
        session.stopRunning()
        #expect(delegate.events.withLock { $0 } == ["start", "pause", "resume", "finish"])
    }
}

/// The movie output's constituent-switching controls for recording (iOS 15); compiled, never called.
func spellAVCaptureMovieFileOutputSwitching(_ output: AVCaptureMovieFileOutput) {
    output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled = true
    let enabled: Bool = output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled
    output.setPrimaryConstituentDeviceSwitchingBehaviorForRecording(.restricted, restrictedSwitchingBehaviorConditions: [.videoZoomChanged])
    let behavior: AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior = output.primaryConstituentDeviceSwitchingBehaviorForRecording
    let conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions =
        output.primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsForRecording
    _ = (enabled, behavior, conditions)
}

/// The movie's metadata; compiled, never called.
func spellAVCaptureMovieFileOutputMetadata(_ movie: AVCaptureMovieFileOutput, _ location: AVMetadataItem) {
    var metadata: [AVMetadataItem] = movie.metadata ?? []
    metadata.append(location)
    movie.metadata = metadata
    movie.metadata = nil
}
