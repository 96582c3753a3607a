import Foundation
import MediaIO
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// What the page drives beyond the camera's own controls: the session's capture controls
/// (the page as its Camera Control), session and format settings, and the photo and record
/// buttons, checked with curl as the client.
@Suite("CaptureWebServer: capture controls, session settings, photos and movies")
struct PageControlsTests {
    /// A stream viewer: curl reading the MJPEG stream until it is stopped.
    final class Viewer {
        let process: ChildProcess
        init(_ url: String) throws {
            process = try ChildProcess("/usr/bin/curl", ["-sS", "-N", "--max-time", "30", "-o", "/dev/null", url], stdout: .discard, stderr: .discard)
        }
        /// SIGKILL: a child spawned from a test's thread can inherit a mask that blocks SIGTERM.
        func leave() { process.kill() }
    }

    final class ControlsEvents: NSObject, AVCaptureSessionControlsDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "page.controls")
        private let lock = NSLock()
        private var recorded: [String] = []
        private func note(_ event: String) { lock.lock(); recorded.append(event); lock.unlock() }
        func sessionControlsDidBecomeActive(_ session: AVCaptureSession) { note("active") }
        func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) { note("enter") }
        func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) { note("exit") }
        func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) { note("inactive") }
        var events: [String] { queue.sync {}; lock.lock(); defer { lock.unlock() }; return recorded }
    }

    @Test("an app's slider and picker are listed, active while someone watches, and changed through POST /controls")
    func appControlsWorkRemotely() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
        let events = ControlsEvents()
        session.setControlsDelegate(events, queue: events.queue)
        let actionQueue = DispatchQueue(label: "page.actions")
        let slider = AVCaptureSlider("Strength", symbolName: "wand.and.stars", in: 0...10, step: 0.5)
        let values = Heard<Float>()
        slider.setActionQueue(actionQueue) { values.add($0) }
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", localizedIndexTitles: ["Natural", "Vivid"])
        let picks = Heard<Int>()
        picker.setActionQueue(actionQueue) { picks.add($0) }
        session.addControl(slider)
        session.addControl(picker)
        let server = try CaptureWebServer(session: session, configuration: .init(port: 0))
        try server.start()
        session.startRunning()
        defer {
            server.stop()
            session.stopRunning()
        }
        let base = server.url!.absoluteString
        let listed = jsonObject(try curl(base + "status"))["controls"] as? [String: Any]
        let list = listed?["list"] as? [[String: Any]] ?? []
        #expect(listed?["active"] as? Bool == false)
        #expect(list.count == 2)
        #expect(list.first?["kind"] as? String == "slider" && list.first?["title"] as? String == "Strength")
        #expect(list.first?["step"] as? Double == 0.5 && list.first?["max"] as? Double == 10)
        #expect(list.last?["titles"] as? [String] == ["Natural", "Vivid"])
        let refused = try curlStatus(base + "controls", ["-X", "POST", "-d", #"{"index": 0, "value": 3}"#])
        #expect(refused.status == 400, "inactive: nobody watches")
        #expect(slider.value == 0)

        let viewer = try Viewer(base + "stream.mjpg")
        eventually("a viewer makes the controls active") { session.areControlsActive }
        _ = try curl(base + "controls", ["-X", "POST", "-d", #"{"interaction": "begin"}"#])
        _ = try curl(base + "controls", ["-X", "POST", "-d", #"{"index": 0, "value": 3.3}"#])
        _ = try curl(base + "controls", ["-X", "POST", "-d", #"{"interaction": "end"}"#])
        _ = try curl(base + "controls", ["-X", "POST", "-d", #"{"index": 1, "selectedIndex": 1}"#])
        for bad in [#"{"index": 5, "value": 1}"#, #"{"index": 1, "value": 1}"#, #"{"index": 0, "selectedIndex": 1}"#,
            #"{"index": 0, "value": "high"}"#, #"{"interaction": "twice"}"#, #"{"colour": 1}"#, "not json"]
        {
            let answer = try curlStatus(base + "controls", ["-X", "POST", "-d", bad])
            #expect(answer.status == 400 && jsonObject(answer.body)["error"] is String, "\(bad): \(answer.status)")
        }
        actionQueue.sync {}
        #expect(slider.value == 3.5, "snapped to the step")
        #expect(values.values == [3.5] && picks.values == [1] && picker.selectedIndex == 1)
        viewer.leave()
        eventually("the viewer's leaving ends the controls") { !session.areControlsActive }
        #expect(events.events == ["active", "enter", "exit", "inactive"])
    }

    @Test("the photo and record buttons save on the server and offer the files; nothing else is served")
    func photosAndMoviesAreSavedAndOffered() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
        #expect(throws: CaptureWebServer.ServerError.self) {
            try CaptureWebServer(session: AVCaptureSession(), configuration: .init(port: 0, saveDirectory: folder.appendingPathComponent("missing")))
        }
        let server = try CaptureWebServer(session: session, configuration: .init(port: 0, saveDirectory: folder))
        try server.start()
        session.startRunning()
        defer {
            server.stop()
            session.stopRunning()
        }
        let base = server.url!.absoluteString
        let photo = jsonObject(try curl(base + "photo", ["-X", "POST", "-d", "{}"]))["file"] as? String
        #expect(photo == "/files/photo-1.jpg")
        let jpeg = try curl(base + "files/photo-1.jpg")
        let picture = try JPEGEncoder.decode(jpeg)
        #expect(picture.width == 352 && picture.height == 288)
        let capture = jsonObject(try curl(base + "status"))["capture"] as? [String: Any]
        #expect(capture?["photos"] as? Bool == true && capture?["movies"] as? Bool == true)

        _ = try curl(base + "record", ["-X", "POST", "-d", #"{"action": "start"}"#])
        #expect(try curlStatus(base + "record", ["-X", "POST", "-d", #"{"action": "start"}"#]).status == 409)
        // A few frames' time (each snapshot waits for the next frame).
        for _ in 0..<6 { _ = try curl(base + "snapshot.jpg") }
        let movie = jsonObject(try curl(base + "record", ["-X", "POST", "-d", #"{"action": "stop"}"#]))["file"] as? String
        #expect(movie == "/files/movie-2.mov")
        let downloaded = folder.appendingPathComponent("download.mov")
        try curl(base + "files/movie-2.mov").write(to: downloaded)
        let described = try FFprobe.text(downloaded.path, ["-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0"])
        #expect(described.hasPrefix("h264,352,288"), "\(described)")
        #expect(try curlStatus(base + "record", ["-X", "POST", "-d", #"{"action": "stop"}"#]).status == 409, "not recording")
        for path in ["files/../../etc/passwd", "files/%2e%2e%2fetc%2fpasswd", "files/download.mov", "files/"] {
            #expect(try curlStatus(base + path, ["--path-as-is"]).status == 404, "\(path)")
        }
    }

    @Test("preset, format, frame rate, HDR, colour space and camera switch through POST /control; bad ones change nothing")
    func sessionAndFormatSettings() async {
        await #expect(processExitsWith: .success) { try settingsBody() }
    }

}

/// The settings test's body (run in a child process: it changes the shared cameras).
func settingsBody() throws {
        do {
            let camera = AVCaptureDevice.default(for: .video)!
            let session = AVCaptureSession()
            session.sessionPreset = .cif352x288
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let server = try CaptureWebServer(session: session, configuration: .init(port: 0))
            try server.start()
            session.startRunning()
            let base = server.url!.absoluteString
            func control(_ body: String) throws -> Int { try curlStatus(base + "control", ["-X", "POST", "-d", body]).status }
            let status = jsonObject(try curl(base + "status"))
            let formats = status["formats"] as? [[String: Any]] ?? []
            #expect(formats.count == camera.formats.count && !formats.isEmpty)
            #expect(status["cameras"] as? [[String: Any]] != nil)
            #expect((status["histogram"] as? [Int]) != nil)

            #expect(try control(#"{"frameRate": 15}"#) == 200)
            #expect(camera.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 15))
            #expect(camera.activeVideoMaxFrameDuration == CMTime(value: 1, timescale: 15))
            #expect(try control(#"{"frameRate": 100000}"#) == 400)
            #expect(try control(#"{"colorSpace": "rainbow"}"#) == 400)
            #expect(try control(#"{"sessionPreset": "vga640x480", "iso": 100}"#) == 400, "session settings come alone")
            #expect(try control(#"{"sessionPreset": "hd1280x720"}"#) == 200)
            #expect(session.sessionPreset == .hd1280x720)
            #expect(try control(#"{"sessionPreset": "wide"}"#) == 400)
            if let hdr = camera.formats.firstIndex(where: \.isVideoHDRSupported) {
                #expect(try control(#"{"activeFormat": \#(hdr), "videoHDREnabled": true}"#) == 200)
                #expect(camera.activeFormat === camera.formats[hdr] && camera.isVideoHDREnabled && !camera.automaticallyAdjustsVideoHDREnabled)
            }
            if let plain = camera.formats.firstIndex(where: { !$0.isVideoHDRSupported }) {
                #expect(try control(#"{"activeFormat": \#(plain), "videoHDREnabled": true}"#) == 400)
            }
            if let p3 = camera.formats.firstIndex(where: { $0.supportedColorSpaces.contains(.P3_D65) }) {
                #expect(try control(#"{"activeFormat": \#(p3), "colorSpace": "P3_D65"}"#) == 200)
                #expect(camera.activeColorSpace == .P3_D65)
            }
            #expect(try control(#"{"activeFormat": 1.5}"#) == 400)
            let front = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)!
            #expect(try control(#"{"device": "\#(front.uniqueID)"}"#) == 200)
            eventually("the stream comes from the front camera") {
                (jsonObject((try? curl(base + "status")) ?? Data())["device"] as? [String: Any])?["uniqueID"] as? String == front.uniqueID
            }
            _ = try curl(base + "snapshot.jpg")
            #expect(try control(#"{"device": "no-such-camera"}"#) == 400)
            server.stop()
            session.stopRunning()
        }
}

/// Values an action heard, from any thread.
final class Heard<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [Value] = []
    func add(_ value: Value) { lock.lock(); heard.append(value); lock.unlock() }
    var values: [Value] { lock.lock(); defer { lock.unlock() }; return heard }
}
