import Foundation
import MediaIO
import Testing
import TestSupport

@Suite("capture serve: live view and control over HTTP", .serialized, .tags(.slow))
struct ServeCommandTests {
    @Test("the page, a snapshot, the status and the MJPEG stream, read by curl")
    func servesPageSnapshotStatusAndStream() throws {
        let server = try ServedCamera()
        let page = try server.request("/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<canvas id=\"live\""))
        let snapshot = try server.request("/snapshot.jpg")
        #expect(snapshot.status == 200)
        let picture = try JPEGEncoder.decode(snapshot.body)
        #expect(picture.width == 352 && picture.height == 288)
        let status = try server.json("/status")
        #expect(status.status == 200)
        #expect((status.object["format"] as? [String: Any])?["width"] as? Int == 352)
        #expect((status.object["device"] as? [String: Any])?["uniqueID"] as? String == "sim:back-wide")
        // Server-sent events: a status event at once, then twice a second.
        let events = try server.curl("/events", ["--max-time", "1.2"])
        #expect(events.stdout.components(separatedBy: "event: status\ndata: {").count - 1 >= 2, "\(events.stdout.prefix(300))")
        // One second of the stream: parts of the multipart response, each a whole JPEG.
        let stream = try server.curl("/stream.mjpg", ["--max-time", "1", "-D", "-"])
        let text = String(decoding: stream.stdoutData.prefix(400), as: UTF8.self)
        #expect(text.lowercased().contains("content-type: multipart/x-mixed-replace; boundary=opencapture-frame"))
        let parts = stream.stdoutData.ranges(of: Data("--opencapture-frame\r\n".utf8)).count
        #expect(parts >= 10, "\(parts) frames in a second of a 30 fps stream")
        #expect(server.stop() == 0)
    }

    @Test("headless Chromium shows the live picture and the readouts")
    func chromiumShowsTheLivePicture() throws {
        let server = try ServedCamera()
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = folder.appendingPathComponent("page.png")
        // Under timeout(1): a page that never finishes loading must fail the test, not hang it.
        let chromium = ["30", "/usr/bin/chromium-headless-shell", "--no-sandbox", "--disable-gpu", "--window-size=1000,700", "--virtual-time-budget=1500"]
        let screenshot = try ToolRunner.run("timeout", chromium + ["--screenshot=\(shot.path)", server.base], path: "/usr/bin/timeout")
        #expect(screenshot.status == 0, "\(screenshot.stderr)")
        let picture = try PictureDecoder.decode(try Data(contentsOf: shot), fitting: .init(width: 1000, height: 700))
        // The scene's chart is on the page: its white and red markers, in the picture's
        // half of the window (the control panel is on the right).
        let rgb = picture.rgb
        var white = 0
        var red = 0
        for y in 0..<picture.height {
            for x in 0..<(picture.width * 2 / 3) {
                let at = 3 * (y * picture.width + x)
                let (r, g, b) = (Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2]))
                if r > 235 && g > 235 && b > 235 { white += 1 }
                if r > 150 && g < 70 && b < 70 { red += 1 }
            }
        }
        #expect(white > 500 && red > 500, "white \(white), red \(red) pixels: no live picture on the page")
        // The readouts come from /status through the page's script.
        let dom = try ToolRunner.run("timeout", chromium + ["--dump-dom", server.base], path: "/usr/bin/timeout")
        #expect(dom.stdout.contains("Back Camera  352x288"), "\(dom.stdout.suffix(600))")
        #expect(server.stop() == 0)
    }

    @Test("in headless Chromium a user moves the ISO slider, taps the picture and turns the page's zoom control")
    func chromiumUserDrivesTheCamera() throws {
        let server = try ServedCamera()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/chromium-page").path
        let input = { (id: String, value: String) in
            #"eval:(() => { const s = document.getElementById("\#(id)"); s.value = \#(value); s.dispatchEvent(new Event("input")); return s.value; })()"#
        }
        // A real DevTools session (through chromium-page): script events for the sliders, a
        // real mouse click for the tap. Under timeout(1), so a stuck browser fails the test.
        let page = try ToolRunner.run(
            "timeout",
            [
                "40", script, server.base,
                #"wait:document.getElementById("readout").textContent.includes("352x288")"#,
                // A camera has no transport: the page shows no transport buttons.
                #"wait:document.getElementById("transportSet").hidden && !document.getElementById("readout").textContent.includes("transport")"#,
                input("iso", "400"),
                #"wait:document.getElementById("readout").textContent.includes("ISO 400")"#,
                #"wait:document.getElementById("appControl0") && !document.getElementById("appControl0").disabled"#,
                input("appControl0", "3"),
                "click:#live,0.25,0.75",
            ], path: "/usr/bin/timeout")
        #expect(page.status == 0, "\(page.stderr)")
        let status = try server.json("/status").object
        let focus = status["focus"] as? [String: Any]
        let point = focus?["pointOfInterest"] as? [Double] ?? []
        #expect(point.count == 2 && abs(point[0] - 0.25) < 0.02 && abs(point[1] - 0.75) < 0.02, "tap: \(point)")
        let zoom = (status["zoom"] as? [String: Any])?["factor"] as? Double
        #expect(zoom == 3, "the page's system zoom slider: \(zoom ?? 0)")
        let controls = (status["controls"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        #expect(controls.map { $0["kind"] as? String } == ["systemZoom", "systemExposureBias"])
        #expect(server.stop() == 0)
    }

    @Test("--save-dir: photos and movies from the page land there; a missing directory is exit 2")
    func saveDirectory() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServedCamera(["--save-dir", folder.path])
        let photo = try server.json("/photo", ["-X", "POST", "-d", "{}"])
        #expect(photo.status == 200 && photo.object["file"] as? String == "/files/photo-1.jpg", "\(photo.object)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("photo-1.jpg").path))
        #expect(try server.request("/files/photo-1.jpg").body.prefix(2) == Data([0xFF, 0xD8]))
        #expect(server.stop() == 0)
        let missing = try ToolRunner.capture("serve", "--listen", "127.0.0.1:0", "--duration", "1", "--save-dir", folder.appendingPathComponent("nope").path)
        #expect(missing.status == 2 && missing.stderr.contains("--save-dir") && missing.stderr.contains("is not a directory"), "\(missing.stderr)")
        let without = try ServedCamera()
        #expect(try without.request("/photo", ["-X", "POST"]).status == 404)
        #expect(without.stop() == 0)
    }

    @Test("POST /control sets the ISO; unknown names and bad values get 4xx with a reason and change nothing")
    func controls() throws {
        let server = try ServedCamera()
        let set = try server.json("/control", ["-X", "POST", "-d", #"{"iso": 400, "exposureDuration": 0.01}"#])
        #expect(set.status == 200, "\(set.object)")
        eventually("the frames carry ISO 400") {
            let exposure = (try? server.json("/status").object["exposure"]) as? [String: Any]
            return exposure?["mode"] as? String == "custom" && abs((exposure?["iso"] as? Double ?? 0) - 400) < 1
        }
        let refused: [(String, Int, String)] = [
            (#"{"wobble": 1}"#, 400, "unknown control 'wobble'"),
            (#"{"exposureTargetBias": 1, "iso": 5}"#, 400, "iso must be in"),
            (#"{"iso": "high"}"#, 400, "iso must be a number"),
            (#"{"focusMode": "sideways"}"#, 400, "focusMode must be"),
            (#"{"pointOfInterest": [2, 0]}"#, 400, "pointOfInterest must be"),
            ("not json", 400, "JSON object"),
            (String(repeating: "x", count: 20_000), 413, "over 16384 bytes"),
        ]
        for (body, code, reason) in refused {
            let answer = try server.json("/control", ["-X", "POST", "--data-binary", body])
            #expect(answer.status == code, "\(body.prefix(40))")
            #expect((answer.object["error"] as? String)?.contains(reason) == true, "\(answer.object)")
        }
        let exposure = try server.json("/status").object["exposure"] as? [String: Any]
        #expect(exposure?["targetBias"] as? Double == 0, "a refused request changed the bias")
        #expect(try server.request("/control").status == 405)
        #expect(try server.request("/nope").status == 404)
        #expect(server.stop() == 0)
    }

    @Test("with a token every request must carry it; other addresses need one")
    func token() throws {
        let server = try ServedCamera(["--token", "s3cret-t0ken"])
        #expect(try server.request("/status").status == 401)
        #expect(try server.request("/stream.mjpg").status == 401)
        #expect(try server.request("/status", ["-H", "Authorization: Bearer s3cret-t0kem"]).status == 401)
        #expect(try server.request("/status", ["-H", "Authorization: Bearer s3cret-t0ken"]).status == 200)
        #expect(try server.request("/snapshot.jpg?token=s3cret-t0ken").status == 200)
        #expect(server.stop() == 0)
        let remote = try ToolRunner.capture("serve", "--listen", "0.0.0.0:0", "--duration", "1")
        #expect(remote.status == 2 && remote.stderr.contains("needs --token or --token-file"), "\(remote.stderr)")
        let bad = try ToolRunner.capture("serve", "--listen", "localhost", "--duration", "1")
        #expect(bad.status == 2 && bad.stderr.contains("--listen must be an IPv4 address and port"), "\(bad.stderr)")
    }

    @Test("twenty clients, one stalled: the others keep getting new frames while it skips; every frame is accounted for", .tags(.realTime))
    func slowClientKeepsRealTimeForOthers() throws {
        let server = try ServedCamera()
        // The stalled client: a small receive buffer, and nothing read after its first part,
        // so its connection thread soon blocks sending to it.
        var stalled = try MJPEGPartReader(port: server.port, receiveBuffer: 4096)
        let firstPart = stalled.next()
        let first = try #require(firstPart, "the stalled client's first frame")
        // Nineteen clients read 40 frames each meanwhile. Threads, not a dispatch queue: on
        // Linux the global pool has only as many threads as cores.
        let parts = 40
        let received = Received(clients: 19)
        let done = DispatchSemaphore(value: 0)
        for client in 0..<19 {
            Thread.detachNewThread {
                defer { done.signal() }
                guard var reader = try? MJPEGPartReader(port: server.port) else { return }
                for _ in 0..<parts {
                    guard let part = reader.next() else { return }
                    received.add(part, client: client)
                }
            }
        }
        for _ in 0..<19 { done.wait() }
        let fast = received.parts
        for (client, frames) in fast.enumerated() {
            #expect(frames.count == parts, "client \(client + 1) got \(frames.count) of \(parts) frames")
            let sequences = frames.map(\.sequence)
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "client \(client + 1): \(sequences)")
            #expect(frames.allSatisfy { $0.jpeg.prefix(2) == Data([0xFF, 0xD8]) && $0.jpeg.suffix(2) == Data([0xFF, 0xD9]) })
        }
        // The stalled client now reads again: what waited in the sockets for it (a few
        // frames), then the newest frame, taken after the others' forty: the server skipped
        // the frames it could not send instead of queueing them, and held nobody up.
        let newestFast = fast.flatMap { $0.map(\.sequence) }.max() ?? 0
        var late = [first.sequence]
        while let part = stalled.next(), late.count < 200 {
            late.append(part.sequence)
            if part.sequence >= newestFast { break }
        }
        #expect(late.last ?? 0 >= newestFast, "the stalled client's frames after it read again: \(late)")
        let skip = zip(late, late.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(skip >= parts / 2, "the stalled client's frames: \(late) (the others reached \(newestFast))")
        // Every frame the output delivered was offered, skipped for a newer one, unwatched,
        // or is still on its way; every dropped frame has a reason.
        let frames = try #require(try server.json("/status").object["frames"] as? [String: Any])
        let count = { (key: String) in frames[key] as? Int ?? -1 }
        let accounted = count("encoded") + count("superseded") + count("unwatched") + count("failed") + count("queued")
        #expect(count("delivered") > 0 && accounted == count("delivered"), "\(frames)")
        let reasons = frames["dropReasons"] as? [String: Int] ?? [:]
        #expect(reasons.values.reduce(0, +) == count("dropped"), "\(frames)")
        #expect(server.stop() == 0)
    }

    @Test("--allow-host adds names the Host header may give; other names are refused, and a bad name is exit 2")
    func allowHost() throws {
        let server = try ServedCamera(["--allow-host", "cam.example,cam.local"])
        for host in ["cam.example", "cam.local:\(server.port)", "localhost:\(server.port)", "127.0.0.1"] {
            #expect(try server.request("/status", ["-H", "Host: \(host)"]).status == 200, "\(host)")
        }
        let foreign = try server.json("/snapshot.jpg", ["-H", "Host: attacker.example:\(server.port)"])
        let reason = foreign.object["error"] as? String ?? ""
        #expect(foreign.status == 403 && reason.contains("not a name of this server") && reason.contains("--allow-host"), "\(foreign.object)")
        // A rebinding page reads the refusal: the names that pass are on stderr, not in it.
        #expect(!reason.contains("cam.example") && !reason.contains("localhost"), "\(reason)")
        #expect(server.stop() == 0)
        let names = try ToolRunner.capture("serve", "--listen", "127.0.0.1:0", "--duration", "0.5", "--allow-host", "cam.example")
        #expect(names.status == 0 && names.stderr.contains("answers to Host: 127.0.0.1, [::1], cam.example, localhost"), "\(names.stderr)")
        let bad = try ToolRunner.capture("serve", "--listen", "127.0.0.1:0", "--duration", "1", "--allow-host", "cam.example,evil host")
        #expect(bad.status == 2 && bad.stderr.contains("--allow-host must be host names"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }
}

/// The frames each client read, from their threads.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [[MJPEGPartReader.Part]]
    init(clients: Int) { frames = Array(repeating: [], count: clients) }
    func add(_ part: MJPEGPartReader.Part, client: Int) {
        lock.lock()
        frames[client].append(part)
        lock.unlock()
    }
    var parts: [[MJPEGPartReader.Part]] {
        lock.lock()
        defer { lock.unlock() }
        return frames
    }
}
