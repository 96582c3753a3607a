import Foundation
import MediaIO
import OpenCapture

/// `capture frames`: captures frames to a Y4M file, with optional per-frame metadata.
enum FramesCommand {
    static let spec = CommandSpec(
        name: "frames", summary: "Capture frames to a .y4m file (and per-frame metadata as JSON lines)",
        synopsis: "[options] -o FILE.y4m",
        description: """
            Captures frames from a camera into a YUV4MPEG2 file that ffmpeg and mpv read
            ('-o -' writes it to standard output: capture frames -o - | ffplay -).
            FILE is written under a temporary name beside it and put in place when complete;
            a run killed outright (SIGKILL) leaves that .FILE.capture-PID-XXXXXX file, and the
            next run that writes in the folder removes it (never one whose writer still runs).
            Ctrl-C (SIGINT) or SIGTERM stops early and keeps the frames so far. If writing fails
            (a full disk), FILE keeps the complete frames, cut after the last one, and the
            metadata the same frames; with none, nothing is left.
            """,
        options: CaptureOptions.camera + [
            .choice(
                "--pixel-format", "PF", CapturePlan.pixelFormatNames,
                help: "420v, 420f, y420, f420 or BGRA (default 420v; BGRA is stored as full-range 4:2:0 because Y4M holds Y'CbCr only), or raw: the simulated sensor's RGGB mosaic as 16-bit grey (Y4M 'C mono16')"),
            .integer("--count", in: 1...1_000_000, help: "Frames to capture (default 30; a file deck stops at the end of its file)"),
            CapturePlan.speedOption,
            PathValue.output("--metadata", placeholder: "FILE", help: "Also write one JSON object per frame (JSON lines); '-' is standard output"),
            .value(
                "--types", "LIST",
                help: "With --metadata: the objects to detect and list under \"objects\", comma-separated: codes (every code type), \(CodeTypes.names), or none (default: none; --metadata alone detects nothing and writes each frame's own metadata with \"objects\" empty; face detection is slow)"
            ) { option, text in
                do { _ = try parseTypes(option, text) } catch {
                    throw UsageError.value(option, text, allowed: "none or a comma-separated list of codes, \(CodeTypes.names)")
                }
            },
            CaptureOptions.overwrite,
            OutputOptions.option("FILE", help: "The .y4m file to write (required); '-' is standard output"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let types = try objectTypes(args)
        let plan = try CapturePlan(args)
        let video = try OutputOptions.target(args, placeholder: "FILE.y4m", missing: "where to write the frames")
        let metadata = try OutputOptions.metadataTarget(args, besides: video)
        let recorder = try FrameRecorder(
            plan: plan, video: OutputFile(video), metadata: metadata.map { try OutputFile($0) }, objectTypes: types)
        let result = try recorder.record()
        // A rate needs two frames: one frame has none to show.
        let rate = result.frames > 1 ? String(format: ", %.2f fps", result.framesPerSecond) : ""
        let summary = "wrote \(Plural.count(result.frames, "frame")) (\(result.width)x\(result.height) \(plan.pixelFormatName)\(rate), "
            + "\(result.dropSummary)) to \(video.name)" + (result.stoppedBy.map { ", stopped by \($0)" } ?? "")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }

    /// What `--types` asks to detect: nothing when not given (detection costs time on every
    /// frame: OpenCV takes a good part of a second a frame), nothing for "none".
    static func objectTypes(_ args: Arguments) throws -> [AVMetadataObject.ObjectType] {
        guard let text = args.value("--types") else { return [] }
        guard args.value("--metadata") != nil else {
            throw UsageError("--types chooses what --metadata lists; give --metadata FILE too")
        }
        return try parseTypes("--types", text)
    }

    /// "none", or a list of type names where "codes" stands for every code type (not faces).
    static func parseTypes(_ option: String, _ text: String) throws -> [AVMetadataObject.ObjectType] {
        guard text.lowercased() != "none" else { return [] }
        var types: [AVMetadataObject.ObjectType] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let named = name.lowercased() == "codes" ? CodeTypes.all.map(\.type).filter { $0 != .face } : try CodeTypes.parse(option, String(name))
            for type in named where !types.contains(type) { types.append(type) }
        }
        return types
    }
}
