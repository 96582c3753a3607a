import Foundation

// `capture`: the OpenCapture command-line tool. Every mistake in a command line ends with
// one line naming the problem and exit status 2; runtime failures with status 1.

let usage = """
    capture: camera capture on Linux through OpenCapture's AVFoundation API

    Usage: capture <command> [options]

    Commands:
      devices    List cameras (simulated ones always; real V4L2 cameras when supported)
      formats    List a camera's formats, frame rates, ISO and exposure ranges
      frames     Capture frames to a .y4m file (and per-frame metadata as JSON lines)
      photo      Take a full-resolution JPEG photo with EXIF
      record     Record H.264 video to a fragmented .mp4 file
      preview    Show a camera live in the terminal (24-bit colour)
      wb         Convert white balance between gains, xy chromaticity and temperature/tint
      bench      Measure throughput, latency and allocations (use a release build)
      bench-v4l2 Measure V4L2 format conversions and, with a V4L2 camera, the per-frame cost

    Run 'capture <command> --help' for a command's options.
    """

let commands: [String: (ArraySlice<String>) throws -> Int32] = [
    "devices": DevicesCommand.run,
    "formats": FormatsCommand.run,
    "frames": FramesCommand.run,
    "photo": PhotoCommand.run,
    "record": RecordCommand.run,
    "preview": PreviewCommand.run,
    "wb": WhiteBalanceCommand.run,
    "bench": BenchCommand.run,
    "bench-v4l2": V4L2BenchCommand.run,
]

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("capture: \(message)\n".utf8))
    exit(status)
}

let words = Array(CommandLine.arguments.dropFirst())
guard let name = words.first else {
    print(usage)
    exit(2)
}
if name == "--help" || name == "-h" || name == "help" {
    print(usage)
    exit(0)
}
guard let command = commands[name] else {
    fail("unknown command '\(name)' (commands: devices, formats, frames, photo, record, wb, bench, bench-v4l2; see 'capture --help')", status: 2)
}
do {
    exit(try command(words.dropFirst()))
} catch let error as UsageError {
    fail(error.description, status: 2)
} catch {
    fail("\(error)", status: 1)
}
