import Foundation
import Testing

/// `--device file:PATH`: a video file played as a camera by every command that takes a device.
@Suite("CLI file deck")
struct DeckCommandTests {
    /// Runs ffmpeg under a timeout; returns its standard output.
    private static func ffmpeg(_ arguments: [String]) throws -> Data {
        try ToolRunner.run("timeout", ["30", "/usr/bin/ffmpeg", "-v", "error", "-nostdin"] + arguments, path: "/usr/bin/timeout").stdoutData
    }

    /// ffmpeg's SHA-256 of each frame of a file, as yuv420p.
    private static func hashes(_ url: URL) throws -> [String] {
        let text = String(
            decoding: try ffmpeg(["-i", url.path, "-fps_mode", "passthrough", "-pix_fmt", "yuv420p", "-f", "framehash", "-hash", "sha256", "-"]),
            as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test("frames --speed -1 writes the file's frames last to first, as ffmpeg decodes them")
    func framesBackwards() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        _ = try Self.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "4",
            "-pix_fmt", "yuv420p", "-y", clip.path,
        ])
        let out = folder.appendingPathComponent("out.y4m")
        let run = try ToolRunner.run(
            "capture", ["frames", "--device", "file:clip.mp4", "--speed", "-1", "--virtual-time", "--pixel-format", "y420", "--count", "10", "-o", "out.y4m"],
            directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote 10 frames (160x120"), "\(run.stderr)")
        let expected = try Self.hashes(clip)
        #expect(expected.count == 10)
        #expect(try Self.hashes(out) == Array(expected.reversed()))
    }

    @Test("a deck stops at the end of its file: frames ends there, with what the file holds")
    func framesStopAtTheEnd() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.y4m")
        _ = try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "4", "-pix_fmt", "yuv420p", "-y", clip.path])
        let run = try ToolRunner.run(
            "capture", ["frames", "--device", "file:\(clip.path)", "--speed", "8", "--pixel-format", "y420", "-o", folder.appendingPathComponent("o.y4m").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote 4 frames") && run.stderr.contains("stopped by the end of the file"), "\(run.stderr)")
        let formats = try ToolRunner.run("capture", ["formats", "--device", "file:\(clip.path)"])
        #expect(formats.status == 0 && formats.stdout.contains("160x120"), "\(formats.stdout)\(formats.stderr)")
    }

    @Test("a missing, unreadable or non-video file, or a bad speed, is exit 2 with one line naming the flag")
    func badDecks() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("words, not video\n".utf8).write(to: text)
        for id in ["file:\(folder.path)/missing.mp4", "file:\(text.path)", "file:"] {
            let run = try ToolRunner.run("capture", ["frames", "--device", id, "-o", folder.appendingPathComponent("x.y4m").path])
            #expect(run.status == 2, "\(id): \(run.stderr)")
            #expect(run.stderr.hasPrefix("capture: --device") || run.stderr.contains("--device"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        let speed = try ToolRunner.run("capture", ["frames", "--device", "file:\(text.path)", "--speed", "10", "-o", "x.y4m"])
        #expect(speed.status == 2 && speed.stderr.contains("--speed"), "\(speed.stderr)")
        let camera = try ToolRunner.run("capture", ["frames", "--speed", "2", "-o", folder.appendingPathComponent("y.y4m").path])
        #expect(camera.status == 2 && camera.stderr.contains("--speed needs a file deck"), "\(camera.stderr)")
    }

    @Test("serve plays a deck; POST /control pauses it and sets its speed")
    func serveDeck() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("cif.y4m")
        _ = try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-frames:v", "10", "-pix_fmt", "yuv420p", "-y", clip.path])
        let server = try ServedCamera(["--device", "file:\(clip.path)"])
        let transport = { try server.json("/status").object["transport"] as? [String: Any] }
        #expect(try transport()?["supported"] as? Bool == true)
        // Paused first: the 10-frame clip would otherwise reach its end (and stop, speed 0) mid-test.
        let pause = try server.json("/control", ["-X", "POST", "-d", #"{"transportMode": "notPlaying", "transportSpeed": -2}"#])
        #expect(pause.status == 200, "\(pause.object)")
        #expect(try transport()?["mode"] as? String == "notPlaying")
        #expect(try transport()?["speed"] as? Double == -2)
        let play = try server.json("/control", ["-X", "POST", "-d", #"{"transportMode": "playing"}"#])
        #expect(play.status == 200, "\(play.object)")
        let wrong = try server.json("/control", ["-X", "POST", "-d", #"{"transportSpeed": 0.1}"#])
        #expect(wrong.status == 400 && (wrong.object["error"] as? String)?.contains("transportSpeed must be") == true, "\(wrong.object)")
        #expect(server.stop() == 0)
    }
}
