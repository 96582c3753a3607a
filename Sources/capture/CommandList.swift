/// The tool's commands, in the order the usage lists them; the usage text and the
/// unknown-command message are made from this list.
enum CommandList {
    static let all: [CommandSpec] = [
        DevicesCommand.spec, FormatsCommand.spec, FramesCommand.spec, PhotoCommand.spec, RecordCommand.spec, AudioCommand.spec, PreviewCommand.spec,
        ScanCommand.spec, ServeCommand.spec, StreamCommand.spec, VirtualCameraCommand.spec, WhiteBalanceCommand.spec, BenchCommand.spec, V4L2BenchCommand.spec,
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// What `capture --help` prints.
    static var usage: String {
        let width = all.map(\.name.count).max() ?? 0
        let rows = all.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary }
        return (
            [
                "capture: camera capture on Linux through OpenCapture's AVFoundation API", "", "Usage: capture <command> [options]",
                "       capture --version", "", "Commands:",
            ] + rows + ["", "Run 'capture <command> --help' for a command's options."]
        ).joined(separator: "\n")
    }

    /// "devices, formats, ..., bench-v4l2".
    static var names: String { all.map(\.name).joined(separator: ", ") }
}
