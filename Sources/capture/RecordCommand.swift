import Foundation
import OpenCapture

/// `capture record`: records H.264 or HEVC, and AAC sound, in a fragmented MP4 file.
enum RecordCommand {
    static let spec = CommandSpec(
        name: "record", summary: "Record H.264 video (and sound) to a fragmented .mp4 file", synopsis: "[options] -o FILE.mp4",
        description: """
            Records H.264 (or HEVC) video in MP4, fragmented so that the file stays playable up to
            its last fragment even if the process is killed. Without --duration it records until
            Ctrl-C (SIGINT) or SIGTERM, which finish the file properly. A new FILE grows in place
            as it records; with --overwrite the recording goes to a temporary name beside FILE and
            replaces it when it ends (a killed run's temporary is removed by the next run that
            writes in the folder). FILE must be a regular file: the MP4 writer creates its own
            file, so '-', devices and FIFOs are refused. If writing fails (a full disk), FILE is
            cut after its last complete fragment; with none, nothing is left. Sound from the
            default microphone (or --audio DEVICE) is recorded beside the picture as AAC, in sync
            on the host clock; --audio none records picture only.
            """,
        options: CaptureOptions.camera + [
            .decimal("--duration", "S", in: 0...86_400, excludingLowerBound: true, unit: "s", help: "Seconds to record, up to 86400 (stops by itself)"),
            .decimal(
                "--fragment", "S", in: fragmentRange, unit: "s",
                help: "Seconds per MP4 fragment, 0.1...60 (default 1): what a killed process loses at most, and what is held in memory until written"),
            .value("--codec", "C", help: "h264 (default) or hevc (also h265)") { option, text in
                guard ["h264", "hevc", "h265"].contains(text.lowercased()) else { throw UsageError.value(option, text, allowed: "h264 or hevc") }
            },
            .value(
                "--audio", "DEVICE",
                help: "Microphone unique ID to record (see 'capture devices'), or none (default: the default microphone)"
            ) { option, text in
                guard text == "none" else { return try DeviceLookup.checkID(option, text) }
            },
            CaptureOptions.overwrite,
            OutputOptions.option(
                "FILE", help: "The .mp4 file to write (required)",
                standardOutput: "record cannot write to standard output (-o -): the MP4 writer needs a file it creates; give -o FILE.mp4"),
        ],
        run: run)

    /// `--fragment`: shorter fragments than a tenth of a second cost more in headers than
    /// they save; longer than a minute hold too much in memory and lose too much when killed.
    static let fragmentRange = 0.1...60.0

    static func run(_ args: Arguments) throws -> Int32 {
        let plan = try CapturePlan(args)
        let duration = args.decimal("--duration")
        let fragment = args.decimal("--fragment") ?? 1
        let codec: AVVideoCodecType = ["hevc", "h265"].contains(args.value("--codec")?.lowercased() ?? "h264") ? .hevc : .h264
        guard AVCaptureMovieFileOutput().availableVideoCodecTypes.contains(codec) else {
            throw UsageError("this FFmpeg cannot encode \(codec == .hevc ? "HEVC (no libx265)" : "H.264")")
        }
        let audio = args.value("--audio")
        let microphone = audio == "none" ? nil : try audio.map { try AudioCommand.microphone($0) } ?? AVCaptureDevice.default(for: .audio)
        let target = try OutputOptions.target(args, placeholder: "FILE.mp4", missing: "where to write the movie")
        if case .special(let kind) = target.kind {
            throw UsageError("record writes regular files only; \(ErrorText.quoted(target.name)) is \(kind) (the MP4 writer needs a file it creates)")
        }
        let replacing = target.kind != .newFile
        // A new file is written where it belongs, so a killed recording is found there.
        let destination = replacing ? target.stagingPath() : target.path
        let recorder = MovieRecorderRun(plan: plan, destination: URL(fileURLWithPath: destination), name: target.name, duration: duration, fragment: fragment, codec: codec,
            microphone: microphone, locksDestination: replacing)
        let summary: String
        do {
            summary = try recorder.record()
            if replacing { try target.install(destination) }
        } catch {
            throw recorder.started ? keepCompleteFragments(of: destination, target: target, failure: error) : error
        }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }

    /// Cuts the movie the recording made after its last complete fragment and puts it in
    /// place, or removes it when no fragment is complete; returns the error to report.
    static func keepCompleteFragments(of path: String, target: OutputTarget, failure: any Error) -> any Error {
        if let complete = MP4Fragments.completePart(of: path), complete.fragments > 0, truncate(path, off_t(complete.length)) == 0 {
            do {
                if target.kind != .newFile { try target.install(path) }
                return CommandFailure(message: "\(ErrorText.line(failure)) (kept \(Plural.count(complete.fragments, "complete fragment")))")
            } catch {
                return CommandFailure(message: "\(ErrorText.line(failure)); then \(ErrorText.line(error))")
            }
        }
        unlink(path)
        return CommandFailure(message: "\(ErrorText.line(failure)) (nothing kept)")
    }
}
