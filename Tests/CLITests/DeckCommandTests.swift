import Foundation
import MediaIO
import Testing
import TestSupport

/// `--device file:PATH`: a video file played as a camera by every command that takes a device.
@Suite("CLI file deck")
struct DeckCommandTests {
    /// Runs ffmpeg (30 s at most); returns its standard output.
    private static func ffmpeg(_ arguments: [String]) throws -> Data {
        try ChildProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin"] + arguments, within: .seconds(30)).stdoutData
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

    /// On virtual time: in real time at 8x a loaded machine may skip a frame (5 ms late), as the deck should.
    @Test("a deck stops at the end of its file: frames ends there, with what the file holds")
    func framesStopAtTheEnd() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.y4m")
        _ = try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "4", "-pix_fmt", "yuv420p", "-y", clip.path])
        let run = try ToolRunner.run(
            "capture", ["frames", "--device", "file:\(clip.path)", "--speed", "8", "--virtual-time", "--pixel-format", "y420", "-o", folder.appendingPathComponent("o.y4m").path])
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

    @Test("in headless Chromium a user pauses the deck and plays it backwards with the page's transport buttons")
    func chromiumDrivesTheTransport() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 20 s at 25 fps: the deck is still playing when the page has loaded.
        let clip = folder.appendingPathComponent("long.mp4")
        _ = try Self.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-frames:v", "500", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-y", clip.path,
        ])
        let server = try ServedCamera(["--device", "file:\(clip.path)"])
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/chromium-page").path
        let delivered = { () throws -> Int? in (try server.json("/status").object["frames"] as? [String: Any])?["delivered"] as? Int }
        // Real DevTools mouse clicks on the buttons, the readout read back through the page's script.
        let readout = #"document.getElementById("readout").textContent"#
        let page = try ToolRunner.run(
            "timeout",
            [
                "40", script, server.base,
                #"wait:!document.getElementById("transportSet").hidden"#,
                "wait:\(readout).includes(\"transport playing at 1x\")",
                "click:#transportPause,0.5,0.5",
                "wait:\(readout).includes(\"transport notPlaying at 1x\")",
            ], path: "/usr/bin/timeout")
        #expect(page.status == 0, "\(page.stderr)")
        let paused = try server.json("/status").object["transport"] as? [String: Any]
        #expect(paused?["mode"] as? String == "notPlaying" && paused?["speed"] as? Double == 1, "\(paused ?? [:])")
        // Paused, no frames come: the count holds still for 15 frame intervals (the one in
        // flight at the click, if any, arrived long before the page's readout showed the pause).
        let held = try #require(try delivered())
        #expect(held > 0)
        usleep(600_000)
        #expect(try delivered() == held, "frames came while paused")

        let back = try ToolRunner.run(
            "timeout",
            [
                "40", script, server.base,
                #"wait:!document.getElementById("transportSet").hidden"#,
                "click:#transportBackward,0.5,0.5",
                // Paused a second or two in, backwards play can reach the start (where the deck
                // stops at speed 0, which only backwards play does) before the page's next
                // status poll: either readout shows the button worked.
                "wait:\(readout).includes(\"transport playing at -1x\") || \(readout).includes(\"transport notPlaying at 0x\")",
            ], path: "/usr/bin/timeout")
        #expect(back.status == 0, "\(back.stderr)")
        eventually("frames come again, backwards") { ((try? delivered()) ?? 0) > held + 5 }
        // Paused a second or two into the file, the deck may already be back at its start
        // (where it stops, speed 0) by now; the page itself showed it playing at -1.
        let playing = try server.json("/status").object["transport"] as? [String: Any]
        let backwards = playing?["mode"] as? String == "playing" && playing?["speed"] as? Double == -1
        let stoppedAtStart = playing?["mode"] as? String == "notPlaying" && playing?["speed"] as? Double == 0
        #expect(backwards || stoppedAtStart, "\(playing ?? [:])")
        #expect(server.stop() == 0)
    }

    @Test("photo, record and scan take a deck; every command that takes a camera refuses a missing or unreadable file with exit 2")
    func otherCommandsTakeADeck() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.y4m")
        _ = try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "6", "-pix_fmt", "yuv420p", "-y", clip.path])
        let photo = try ToolRunner.run("capture", ["photo", "--device", "file:\(clip.path)", "-o", folder.appendingPathComponent("p.jpg").path])
        #expect(photo.status == 0, "\(photo.stderr)")
        // A deck has no lens: the report says so rather than "f/0.0".
        #expect(photo.stderr.contains("aperture unknown") && !photo.stderr.contains("f/0.0"), "\(photo.stderr)")
        let picture = try JPEGEncoder.decode(try Data(contentsOf: folder.appendingPathComponent("p.jpg")))
        #expect(picture.width == 160 && picture.height == 120)
        let movie = folder.appendingPathComponent("r.mp4")
        // Without --duration the recording ends where the file does (the deck stops there).
        let record = try ToolRunner.run("capture", ["record", "--device", "file:\(clip.path)", "--audio", "none", "-o", movie.path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("6 frames") && record.stderr.contains("stopped by the end of the file"), "\(record.stderr)")
        let probe = try FFprobe.run(movie.path, ["-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0"])
        #expect(probe.stdout.hasPrefix("h264,160,120"), "\(probe.stdout)\(probe.stderr)")
        // scan: a QR code (qrencode's picture in an H.264 movie) read from the deck's frames.
        let png = folder.appendingPathComponent("qr.png")
        _ = try ToolRunner.run("qrencode", ["-o", png.path, "-s", "6", "-m", "4", "deck scan"], path: "/usr/bin/qrencode")
        let qr = folder.appendingPathComponent("qr.mp4")
        _ = try Self.ffmpeg([
            "-loop", "1", "-framerate", "25", "-i", png.path, "-frames:v", "25", "-vf", "pad=352:288:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-y", qr.path,
        ])
        let scan = try ToolRunner.run("capture", ["scan", "--device", "file:\(qr.path)", "--types", "qr", "--count", "1"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains(#""string":"deck scan""#) || scan.stdout.contains(#""string": "deck scan""#), "\(scan.stdout)")
        // Unreadable: root-owned and 0600, opened as nobody (when the tests run as root).
        let locked = folder.appendingPathComponent("locked.y4m")
        try FileManager.default.copyItem(at: clip, to: locked)
        chmod(locked.path, 0o600)
        chmod(folder.path, 0o755)
        if UnprivilegedOutputTests.canSwitchUser {
            let run = try ToolRunner.run(
                "runuser", ["-u", "nobody", "--", ToolRunner.executable("capture").path, "frames", "--device", "file:\(locked.path)", "-o", "/dev/null"],
                path: "/usr/sbin/runuser", directory: URL(fileURLWithPath: "/"))
            #expect(run.status == 2 && run.stderr.contains("--device") && run.stderr.contains("locked.y4m"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        let missing = "file:\(folder.path)/missing.mp4"
        let commands: [[String]] = [
            ["photo", "-o", folder.appendingPathComponent("m.jpg").path], ["record", "-o", folder.appendingPathComponent("m.mp4").path],
            ["preview", "--frames", "1"], ["scan"], ["serve", "--listen", "127.0.0.1:0", "--duration", "1"], ["stream", "rtsp://127.0.0.1:1/x"], ["formats"], ["wb", "--gains", "1,1,1"],
        ]
        for command in commands {
            let run = try ToolRunner.run("capture", [command[0], "--device", missing] + command.dropFirst())
            #expect(run.status == 2 && run.stderr.contains("--device") && run.stderr.contains("missing.mp4"), "\(command[0]): \(run.stderr)")
        }
    }
}
