import Foundation
import Testing

@Suite("capture focus, zoom and torch flags", .serialized)
struct FocusZoomTorchFlagTests {
    @Test("bad focus, zoom and torch values get one line and exit status 2", arguments: [
        (["frames", "--focus", "sharp", "-o", "/tmp/x.y4m"], "--focus must be auto, continuous, locked or a lens position in 0...1, not 'sharp'"),
        (["frames", "--focus", "1.5", "-o", "/tmp/x.y4m"], "--focus must be auto, continuous, locked or a lens position in 0...1, not '1.5'"),
        (["frames", "--device", "sim:back-ultrawide", "--focus", "auto", "-o", "/tmp/x.y4m"], "has a fixed-focus lens"),
        (["frames", "--zoom", "big", "-o", "/tmp/x.y4m"], "--zoom must be a positive number up to 1000, not 'big'"),
        (["frames", "--zoom", "0.5", "-o", "/tmp/x.y4m"], "outside the format's zoom range 1...16"),
        (["frames", "--torch", "bright", "-o", "/tmp/x.y4m"], "--torch must be off, on, auto or a level in (0, 1], not 'bright'"),
        (["frames", "--torch", "0", "-o", "/tmp/x.y4m"], "--torch must be off, on, auto or a level in (0, 1], not '0'"),
        (["frames", "--device", "sim:front-wide", "--torch", "on", "-o", "/tmp/x.y4m"], "has no torch"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("--focus, --zoom and --torch reach every frame's metadata")
    func flagsApply() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let metadata = folder.appendingPathComponent("l.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "4", "--virtual-time", "--focus", "0.25", "--zoom", "2",
            "--torch", "0.5", "--metadata", metadata, "-o", folder.appendingPathComponent("l.y4m").path)
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.count == 4)
        for row in rows {
            #expect(row["lens_position"] as? Double == 0.25)
            #expect(row["focus_mode"] as? String == "locked")
            #expect(row["zoom_factor"] as? Double == 2)
            #expect(row["torch_level"] as? Double == 0.5)
        }
        let help = try ToolRunner.run("capture", ["frames", "--help"])
        #expect(help.stdout.contains("--focus F") && help.stdout.contains("--zoom Z") && help.stdout.contains("--torch T"))
    }
}
