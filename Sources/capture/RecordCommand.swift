import Foundation
import OpenCapture

/// `capture record`: records H.264 or HEVC in a fragmented MP4 file.
enum RecordCommand {
    static let help = """
        Usage: capture record [options] -o FILE.mp4

        Records H.264 (or HEVC) video in MP4, fragmented so that the file stays playable up to its last
        fragment even if the process is killed. Without --duration it records until Ctrl-C
        (SIGINT) or SIGTERM, which finish the file properly.
          --duration S         Seconds to record (stops by itself)
          --fragment S         Seconds per MP4 fragment (default 1)
          --codec C            h264 (default) or hevc
          --overwrite          Replace FILE if it exists
        \(FramesCommand.sharedHelp)
          -o, --output FILE    The .mp4 file to write (required)
        """

    static func run(_ words: ArraySlice<String>) throws -> Int32 {
        let args = try Arguments(
            Array(words), options: FramesCommand.sharedOptions.union(["--duration", "--fragment", "--codec"]),
            switches: FramesCommand.sharedSwitches.union(["--overwrite"]), aliases: ["-o": "--output", "-h": "--help"])
        if args.has("--help") { print(help); return 0 }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let plan = try CapturePlan(args)
        let duration = try args.positiveNumber("--duration")
        let fragment = try args.positiveNumber("--fragment") ?? 1
        let codec: AVVideoCodecType
        switch args.value("--codec") ?? "h264" {
        case "h264": codec = .h264
        case "hevc", "h265": codec = .hevc
        case let other: throw UsageError("--codec must be h264 or hevc, not '\(other)'")
        }
        guard AVCaptureMovieFileOutput().availableVideoCodecTypes.contains(codec) else {
            throw UsageError("this FFmpeg cannot encode \(codec == .hevc ? "HEVC (no libx265)" : "H.264")")
        }
        try SessionSetup.checkOverwrite(plan.output, allowed: args.has("--overwrite"))
        let recorder = MovieRecorderRun(plan: plan, duration: duration, fragment: fragment, codec: codec)
        let summary = try recorder.record()
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }
}

/// Runs a session with a movie output until the duration passes or a signal arrives.
final class MovieRecorderRun: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let plan: CapturePlan
    private let duration: Double?
    private let fragment: Double
    private let finished = DispatchSemaphore(value: 0)
    private var failure: (any Error)?
    private var stoppedBy: String?
    private let progress = ProgressLine()

    private let codec: AVVideoCodecType

    init(plan: CapturePlan, duration: Double?, fragment: Double, codec: AVVideoCodecType = .h264) {
        self.plan = plan
        self.duration = duration
        self.fragment = fragment
        self.codec = codec
    }

    func record() throws -> String {
        let session = AVCaptureSession()
        let output = AVCaptureMovieFileOutput()
        output.movieFragmentInterval = CMTime(seconds: fragment, preferredTimescale: 1000)
        if let duration { output.maxRecordedDuration = CMTime(seconds: duration, preferredTimescale: 1000) }
        try SessionSetup.configure(session, plan: plan, outputs: [output])
        if let connection = output.connection(with: .video) { output.setOutputSettings([AVVideoCodecKey: codec], for: connection) }
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self, weak output] in
                self?.stoppedBy = number == SIGINT ? "SIGINT" : "SIGTERM"
                output?.stopRecording()
            }
            source.activate()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try session.startRunningChecked()
        output.startRecording(to: plan.output, recordingDelegate: self)
        let started = Date()
        while finished.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            progress.update(
                frames: output.recordedFrameCount, of: 0, drops: output.droppedFrameCount, bytes: Int(output.recordedFileSize),
                elapsed: Date().timeIntervalSince(started))
        }
        progress.finish()
        let frames = output.recordedFrameCount
        let drops = output.droppedFrameCount
        let seconds = output.recordedDuration.seconds
        let bytes = output.recordedFileSize
        try session.stopRunningChecked()
        if let failure { throw failure }
        let reason = stoppedBy.map { ", stopped by \($0)" } ?? ""
        return String(
            format: "wrote %.2f s, %d frames (%d dropped), %.1f MB to %@%@", seconds, frames, drops, Double(bytes) / 1e6,
            plan.output.path, reason)
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        if let error = error as? AVError {
            let complete = error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool ?? false
            // Reaching --duration ends the recording with a "limit reached" error whose file is complete.
            if !(error.code == .maximumDurationReached && complete) { failure = FrameRecorder.RuntimeFailure(message: error.localizedDescription) }
        } else if let error {
            failure = error
        }
        finished.signal()
    }
}
