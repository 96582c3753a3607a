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
            FILE is written under a temporary name beside it and put in place when complete.
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
            CaptureOptions.overwrite,
            OutputOptions.option("FILE", help: "The .y4m file to write (required); '-' is standard output"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let plan = try CapturePlan(args)
        let video = try OutputOptions.target(args, placeholder: "FILE.y4m", missing: "where to write the frames")
        let metadata = try OutputOptions.metadataTarget(args, besides: video)
        let recorder = try FrameRecorder(plan: plan, video: OutputFile(video), metadata: metadata.map { try OutputFile($0) })
        let result = try recorder.record()
        let summary = String(
            format: "wrote %d frames (%dx%d %@, %.2f fps, %d dropped) to %@",
            result.frames, result.width, result.height, plan.pixelFormatName, result.framesPerSecond, result.drops, video.name)
            + (result.stoppedBy.map { ", stopped by \($0)" } ?? "")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }
}
