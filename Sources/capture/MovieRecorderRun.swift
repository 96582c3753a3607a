import Foundation
import OpenCapture
import Synchronization

/// Runs a session with a movie output until the duration passes or a signal arrives.
final class MovieRecorderRun: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let plan: CapturePlan
    private let destination: URL
    /// The output as the user named it, for messages.
    private let name: String
    private let duration: Double?
    private let fragment: Double
    private let codec: AVVideoCodecType
    /// The microphone recorded beside the camera, if any.
    private let microphone: AVCaptureDevice?
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex<(failure: (any Error)?, stoppedBy: String?, started: Bool)>((nil, nil, false))
    private let progress = ProgressLine()
    /// Whether the destination is a temporary whose writer's lock this run holds once the
    /// movie file exists (see StagingFiles); the descriptor holding it, and the one keeping
    /// clean-ups out of the folder until then.
    private let locksDestination: Bool
    private let lock = Mutex<(file: Int32, folder: Int32)>((-1, -1))

    /// How long the camera may deliver nothing before the recording is given up.
    static let stallLimit = 10.0

    init(
        plan: CapturePlan, destination: URL, name: String, duration: Double?, fragment: Double, codec: AVVideoCodecType,
        microphone: AVCaptureDevice? = nil, locksDestination: Bool = false
    ) {
        self.microphone = microphone
        self.locksDestination = locksDestination
        self.plan = plan
        self.destination = destination
        self.name = name
        self.duration = duration
        self.fragment = fragment
        self.codec = codec
    }

    /// Whether the movie file was created (the first frame reached the writer).
    var started: Bool { state.withLock { $0.started } }

    func record() throws -> String {
        let session = AVCaptureSession()
        let output = AVCaptureMovieFileOutput()
        // Both come from checked options (0.1...60 s and at most 86400 s), so neither
        // conversion can overflow or round to zero.
        output.movieFragmentInterval = CMTime(seconds: fragment, preferredTimescale: 1000)
        if let duration { output.maxRecordedDuration = CMTime(seconds: duration, preferredTimescale: 1000) }
        try SessionSetup.configure(session, plan: plan, outputs: [output])
        if let microphone {
            // The microphone follows the camera's pacing and seed (a simulated one), and
            // connects to the movie output as its audio track.
            if plan.virtualTime { microphone.microphoneSimulation?.pacing = .virtual }
            if let seed = plan.seed { microphone.microphoneSimulation?.seed = seed }
            try session.addInputChecked(try AVCaptureDeviceInput(device: microphone))
        }
        if let connection = output.connection(with: .video) { output.setOutputSettings([AVVideoCodecKey: codec], for: connection) }
        let signals = SignalWatcher(queue: .global()) { [weak self, weak output] number in
            self?.state.withLock { $0.stoppedBy = SignalWatcher.name(number) }
            output?.stopRecording()
        }
        defer { signals.cancel() }
        // A file deck waits for the recording, so the movie holds the file from its first frame.
        let deck = plan.device.deck != nil
        let speed = plan.device.transportControlsSpeed == 0 ? 1 : plan.device.transportControlsSpeed
        if deck { try transport(.notPlaying, speed: speed) }
        try session.startRunningChecked()
        if locksDestination {
            // The movie writer creates the file at the first frame (see StagingFiles).
            let folder = StagingFiles.holdFolder(of: destination.path)
            lock.withLock { $0.folder = folder }
        }
        defer { releaseFolder() }
        output.startRecording(to: destination, recordingDelegate: self)
        if deck { try transport(.playing, speed: speed) }
        let started = Date()
        var lastCount = -1
        var lastChange = Date()
        while finished.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let frames = output.recordedFrameCount
            progress.update(
                frames: frames, of: 0, drops: output.droppedFrameCount, bytes: Int(output.recordedFileSize),
                elapsed: Date().timeIntervalSince(started))
            if frames != lastCount {
                lastCount = frames
                lastChange = Date()
            } else if plan.device.deck != nil && plan.device.transportControlsPlaybackMode == .notPlaying && frames > 0
                && Date().timeIntervalSince(lastChange) > 0.1
            {
                // A file deck stopped at the end of its file (the last frame has had time to arrive).
                state.withLock { $0.stoppedBy = $0.stoppedBy ?? "the end of the file" }
                output.stopRecording()
                finished.wait()
                break
            } else if Date().timeIntervalSince(lastChange) > Self.stallLimit {
                // A camera that stops delivering must not leave the tool waiting for ever.
                state.withLock { $0.failure = $0.failure ?? CommandFailure(message: "\(plan.device.localizedName) delivered no frames for \(Int(Self.stallLimit)) s") }
                output.stopRecording()
                finished.wait()
                break
            }
        }
        progress.finish()
        let frames = output.recordedFrameCount
        let drops = output.droppedFrameCount
        let seconds = output.recordedDuration.seconds
        let bytes = output.recordedFileSize
        try session.stopRunningChecked()
        let (failure, stoppedBy, _) = state.withLock { $0 }
        if let failure { throw failure }
        let reason = stoppedBy.map { ", stopped by \($0)" } ?? ""
        let sound = microphone.map { ", sound from \($0.localizedName)" } ?? ""
        return String(
            format: "wrote %.2f s, %@ (%d dropped)%@, %.1f MB to %@%@", seconds, Plural.count(frames, "frame"), drops, sound, Double(bytes) / 1e6, name,
            reason)
    }

    private func transport(_ mode: AVCaptureDevice.TransportControlsPlaybackMode, speed: Float) throws {
        try plan.device.lockForConfiguration()
        defer { plan.device.unlockForConfiguration() }
        try plan.device.setTransportControlsPlaybackModeChecked(mode, speed: speed)
    }

    deinit {
        let (file, folder) = lock.withLock { $0 }
        if file >= 0 { close(file) }
        if folder >= 0 { close(folder) }
    }

    /// Lets clean-ups into the folder again (the temporary is locked, or was never made).
    private func releaseFolder() {
        let folder = lock.withLock { held -> Int32 in
            defer { held.folder = -1 }
            return held.folder
        }
        if folder >= 0 { close(folder) }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        state.withLock { $0.started = true }
        if locksDestination {
            let descriptor = StagingFiles.lock(fileURL.path)
            lock.withLock { $0.file = descriptor }
            releaseFolder()
        }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        var failure: (any Error)?
        if let error = error as? AVError {
            let complete = error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool ?? false
            if error.code == .diskFull {
                failure = OutputError(name: name, number: ENOSPC)
            } else if !(error.code == .maximumDurationReached && complete) {
                // Reaching --duration ends the recording with a "limit reached" error whose file is complete.
                failure = CommandFailure(message: error.localizedDescription)
            }
        } else if let error {
            failure = error
        }
        state.withLock { $0.failure = $0.failure ?? failure }
        finished.signal()
    }
}
