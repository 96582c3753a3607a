import Foundation
import OpenCapture

/// `capture audio`: records a microphone to a WAV or M4A file.
enum AudioCommand {
    static let spec = CommandSpec(
        name: "audio", summary: "Record a microphone to a .wav or .m4a file", synopsis: "[--device ID] [--duration S] [--overwrite] -o FILE.wav|FILE.m4a",
        description: """
            Records a microphone (by default ALSA's default device, alsa:default, where a sound
            card or sound server answers, else the simulated one; 'capture devices' lists them
            all) at its rate and channel count: 16-bit linear PCM in a
            WAV file, or AAC (64 kbit/s per channel) in an M4A file, chosen by the file's
            extension. Without --duration it records until Ctrl-C (SIGINT) or
            SIGTERM, which finish the file properly. With --overwrite the recording goes to a
            temporary name beside FILE and replaces it when it ends (a killed run's temporary is
            removed by the next run that writes in the folder). On a terminal the progress line
            shows the level of the last buffer and the peak of the last second, in dBFS.
            """,
        options: [
            .value("--device", "ID", help: "Microphone unique ID (see 'capture devices'; default: the default microphone)", validate: DeviceLookup.checkID),
            .decimal("--duration", "S", in: 0...86_400, excludingLowerBound: true, unit: "s", help: "Seconds to record, up to 86400 (stops by itself)"),
            CaptureOptions.overwrite,
            OutputOptions.option(
                "FILE", help: "The .wav or .m4a file to write (required)",
                standardOutput: "audio cannot write to standard output (-o -): the file's header is completed when recording ends; give -o FILE.wav or FILE.m4a"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let device = try microphone(args.value("--device"))
        let target = try OutputOptions.target(args, placeholder: "FILE.wav", missing: "where to write the sound")
        if case .special(let kind) = target.kind {
            throw UsageError("audio writes regular files only; \(ErrorText.quoted(target.name)) is \(kind) (the file's header is completed at the end)")
        }
        let ext = URL(fileURLWithPath: target.name).pathExtension.lowercased()
        guard ext == "wav" || ext == "m4a" else {
            throw UsageError("audio writes .wav (PCM) or .m4a (AAC) files; \(ErrorText.quoted(target.name)) has neither extension")
        }
        let replacing = target.kind != .newFile
        let destination = replacing ? target.stagingPath() : target.path
        // No clean-up may see the temporary before it is locked (see StagingFiles).
        let folder = replacing ? StagingFiles.holdFolder(of: destination) : -1
        let recorder: AudioRecorder
        do {
            recorder = try AudioRecorder(device: device, path: destination, m4a: ext == "m4a", duration: args.decimal("--duration"))
        } catch {
            if folder >= 0 { close(folder) }
            throw error
        }
        // The writer's lock on the temporary, held while recording.
        let lock = replacing ? StagingFiles.lock(destination) : -1
        if folder >= 0 { close(folder) }
        defer { if lock >= 0 { close(lock) } }
        do {
            let summary = try recorder.record()
            if replacing { try target.install(destination) }
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        } catch {
            // Nothing half-written is left as if it were a recording.
            unlink(destination)
            throw error
        }
        return 0
    }

    /// The microphone with that unique ID, or the default one.
    static func microphone(_ id: String?) throws -> AVCaptureDevice {
        guard let id else {
            guard let device = AVCaptureDevice.default(for: .audio) else { throw UsageError("no microphone found") }
            return device
        }
        if let device = AVCaptureDevice(uniqueID: id), device.hasMediaType(.audio) { return device }
        let known = DeviceLookup.microphones.map(\.uniqueID).joined(separator: ", ")
        throw UsageError("unknown microphone \(ErrorText.quoted(id)) (microphones: \(known); see 'capture devices')")
    }
}

/// One recording: a session from the microphone to an audio data output whose delegate
/// appends each buffer to the WAV or M4A file (on the delegate's queue).
final class AudioRecorder: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let session = AVCaptureSession()
    private let output = AVCaptureAudioDataOutput()
    private let queue = DispatchQueue(label: "capture.audio")
    private let device: AVCaptureDevice
    private let file: any SoundFile
    private let rate: Double
    private let duration: Double?
    private let finished = DispatchSemaphore(value: 0)
    private let progress = ProgressLine()
    private let state = Mutex<(frames: Int, first: CMTime?, failure: (any Error)?, done: Bool, signal: String?)>((0, nil, nil, false, nil))

    init(device: AVCaptureDevice, path: String, m4a: Bool = false, duration: Double?) throws {
        self.device = device
        guard let asbd = device.activeFormat.formatDescription.audioStreamBasicDescription, asbd.mBitsPerChannel == 16 else {
            throw CommandFailure(message: "\(device.localizedName) delivers no 16-bit linear PCM")
        }
        rate = asbd.mSampleRate
        self.duration = duration
        file =
            m4a
            ? try M4AFile(path: path, sampleRate: asbd.mSampleRate, channels: Int(asbd.mChannelsPerFrame))
            : try WAVFile(path: path, sampleRate: UInt32(asbd.mSampleRate), channels: UInt16(asbd.mChannelsPerFrame))
        super.init()
        session.addInput(try AVCaptureDeviceInput(device: device))
        output.setSampleBufferDelegate(self, queue: queue)
        session.addOutput(output)
    }

    /// Records until the duration, a signal or a failure; returns the summary line.
    func record() throws -> String {
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { [weak self] note in
            let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError
            self?.end(failure: CommandFailure(message: error?.localizedDescription ?? "the microphone failed"))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let signals = SignalWatcher(queue: .global()) { [weak self] number in self?.end(signal: SignalWatcher.name(number)) }
        defer { signals.cancel() }
        try session.startRunningChecked()
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        session.stopRunning()
        // The delegate queue may still hold a buffer; after this nothing more is appended.
        queue.sync {}
        progress.finish()
        let (frames, failure, stoppedBy) = state.withLock { ($0.frames, $0.failure, $0.signal) }
        if let failure { throw failure }
        try file.finish()
        let stopped = stoppedBy.map { " (stopped by \($0))" } ?? ""
        return String(format: "recorded %.2f s of %@ (%@, %.0f Hz)%@", Double(frames) / rate, device.localizedName, Plural.count(frames, "frame"), rate, stopped)
    }

    private func end(failure: (any Error)? = nil, signal: String? = nil) {
        let first = state.withLock { s -> Bool in
            guard !s.done else { return false }
            s.done = true
            s.failure = failure
            s.signal = signal
            return true
        }
        if first { finished.signal() }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard !state.withLock({ $0.done }), let data = sampleBuffer.dataBuffer else { return }
        let frames = sampleBuffer.numSamples
        let bytesPerFrame = data.dataLength / max(frames, 1)
        // Only what --duration asks for: the last buffer is cut to the sample.
        let recorded = state.withLock { $0.frames }
        let wanted = duration.map { max(0, Int(($0 * rate).rounded()) - recorded) } ?? frames
        let keep = min(frames, wanted)
        var bytes = Data(count: keep * bytesPerFrame)
        bytes.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
        do {
            try file.append(bytes, frames: keep)
        } catch {
            return end(failure: error)
        }
        let total = state.withLock { s -> Int in
            s.frames += keep
            return s.frames
        }
        let channel = connection.audioChannels.first
        progress.audio(seconds: Double(total) / rate, average: channel?.averagePowerLevel ?? -160, peak: channel?.peakHoldLevel ?? -160)
        if keep < frames || (duration.map { Double(total) >= $0 * rate } ?? false) { end() }
    }
}
