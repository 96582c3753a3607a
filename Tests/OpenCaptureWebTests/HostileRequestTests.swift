import Foundation
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// The requests of raw-socket attacks on `capture serve` over loopback (issue 26), each
/// against a server the test starts on a free loopback port. Each test runs in a child
/// process (an exit test): a refusal that failed would change the shared camera.
@Suite("CaptureWebServer: hostile requests are refused")
struct HostileRequestTests {
    @Test("another site cannot change the camera, take a photo or record; a rebinding page cannot read it")
    func crossSiteRequestsAndRebinding() async {
        await #expect(processExitsWith: .success) { try crossSiteBody() }
    }

    @Test("values of the wrong JSON type, near-miss preset names, escaped NULs and long targets are refused")
    func lenientInputIsRefused() async {
        await #expect(processExitsWith: .success) { try leniencyBody() }
    }

    @Test("a flood of slowloris or idle connections does not keep a prompt client waiting, token or not")
    func connectionFloods() async {
        await #expect(processExitsWith: .success) { try floodBody() }
    }

    @Test("a request dribbled a byte at a time is cut off at the request deadline, and so is an idle keep-alive")
    func requestDeadline() async {
        await #expect(processExitsWith: .success) { try deadlineBody() }
    }

    @Test("one client address cannot take more than its share of connections")
    func perAddressLimit() async {
        await #expect(processExitsWith: .success) { try perAddressBody() }
    }
}

/// A refusal is the expected status with a one-line reason; a request refused for what it
/// is (not for a setting's value) also has its connection closed after the answer.
func expectRefusal(
    _ response: RawHTTPConnection.Response?, _ status: Int, mentioning words: String = "", closes: Bool = true, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response?.status == status, "\(what): \(response?.status ?? 0) \(response?.reason ?? "")", sourceLocation: sourceLocation)
    let reason = response?.reason ?? ""
    #expect(!reason.isEmpty && !reason.contains("\n") && (words.isEmpty || reason.contains(words)), "\(what): '\(reason)'", sourceLocation: sourceLocation)
    if closes {
        #expect(response?.headers["connection"]?.lowercased() == "close", "\(what): \(response?.headers ?? [:])", sourceLocation: sourceLocation)
    }
}

private func crossSiteBody() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let served = try ServedSession {
        $0.saveDirectory = folder
        $0.allowedHosts = ["cam.example"]
    }
    defer { served.stop() }
    let port = served.port
    let json = "Content-Type: application/json"
    // A page on another site posts through the user's browser: with its Origin, or as a
    // form or a text/plain fetch (which need no CORS preflight), or with no type at all.
    let attacks: [(path: String, body: String, headers: [String], status: Int)] = [
        ("/control", #"{"videoZoomFactor": 2.5}"#, ["Origin: http://evil.example", json], 403),
        ("/control", #"{"videoZoomFactor": 2.5}"#, ["Origin: http://127.0.0.1:\(port).evil.example", json], 403),
        ("/control", #"{"videoZoomFactor": 2.5}"#, ["Origin: null", json], 403),
        ("/control", #"{"videoZoomFactor": 2.5}"#, ["Content-Type: text/plain;charset=UTF-8"], 415),
        ("/control", "videoZoomFactor=2.5", ["Content-Type: application/x-www-form-urlencoded"], 415),
        ("/control", #"{"videoZoomFactor": 2.5}"#, [], 415),
        ("/photo", "{}", ["Origin: http://evil.example", json], 403),
        ("/photo", "{}", ["Content-Type: text/plain"], 415),
        ("/record", #"{"action": "start"}"#, ["Origin: http://evil.example", json], 403),
        ("/record", #"{"action": "start"}"#, ["Content-Type: multipart/form-data; boundary=x"], 415),
        ("/controls", #"{"interaction": "begin"}"#, ["Origin: http://evil.example", json], 403),
    ]
    for attack in attacks {
        let answer = try served.send("POST", attack.path, headers: attack.headers, body: attack.body)
        expectRefusal(answer, attack.status, "POST \(attack.path) with \(attack.headers)")
    }
    #expect(served.camera.videoZoomFactor == 1, "a refused request zoomed")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a refused request saved a file")
    #expect(served.server.session.outputs.compactMap { $0 as? AVCaptureMovieFileOutput }.allSatisfy { !$0.isRecording })
    // A DNS rebinding page: its own name now points here, so the browser sends that name.
    for host in ["attacker.example", "attacker.example:\(port)", "127.0.0.1.attacker.example", "localhost.evil:\(port)", "127.0.0.1:80x"] {
        let answer = try served.send("GET", "/snapshot.jpg", headers: ["Host: \(host)"])
        expectRefusal(answer, 403, mentioning: "not a name of this server", "Host \(host)")
    }
    expectRefusal(try served.send("GET", "/status", headers: [], version: "HTTP/1.0", noHost: true), 400, mentioning: "Host", "no Host")
    // The server's own names, with or without the port, in any case, and an allowed one.
    for host in ["127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "cam.example", "Cam.Example:\(port)"] {
        #expect(try served.send("GET", "/status", headers: ["Host: \(host)"])?.status == 200, "Host \(host)")
    }
    // The served page's own POST (Origin: its own origin) and one without an Origin (curl).
    let own = try served.send("POST", "/control", headers: ["Host: localhost:\(port)", "Origin: http://localhost:\(port)", json], body: #"{"videoZoomFactor": 2.5}"#)
    #expect(own?.status == 200 && served.camera.videoZoomFactor == 2.5, "the page's own request: \(own?.status ?? 0) \(own?.reason ?? "")")
    let tool = try served.send("POST", "/control", headers: ["Content-Type: application/json; charset=utf-8"], body: #"{"videoZoomFactor": 1}"#)
    #expect(tool?.status == 200 && served.camera.videoZoomFactor == 1)
    let photo = try served.send("POST", "/photo", headers: ["Origin: http://\(served.host)", json], body: "{}")
    #expect(photo?.status == 200, "\(photo?.reason ?? "")")
}

private func leniencyBody() throws {
    let served = try ServedSession()
    defer { served.stop() }
    // Under continuous autofocus the lens moves by itself; a taken lensPosition would lock it.
    let focusMode = served.camera.focusMode
    let json = ["Content-Type: application/json"]
    let refused: [(body: String, words: String)] = [
        (#"{"lensPosition": true}"#, "lensPosition must be a number in 0.0...1.0"),
        (#"{"lensPosition": "0.5"}"#, "lensPosition must be a number"),
        (#"{"videoZoomFactor": [2]}"#, "videoZoomFactor must be a number"),
        (#"{"iso": false}"#, "iso must be a number"),
        (#"{"videoHDREnabled": 1}"#, "videoHDREnabled must be true or false"),
        (#"{"focusMode": 1}"#, "continuousAutoFocus"),
        (#"{"torchMode": null}"#, "off, on, auto"),
        (#"{"pointOfInterest": [true, 0.5]}"#, "pointOfInterest must be [x, y]"),
        (#"{"activeFormat": true}"#, "activeFormat must be a number"),
        (#"{"sessionPreset": "zzz1280x720"}"#, "hd1280x720"),
        (#"{"sessionPreset": "1280x720zzz"}"#, "sessionPreset must be one of"),
        (#"{"sessionPreset": "hd"}"#, "sessionPreset must be one of"),
        (#"{"sessionPreset": true}"#, "sessionPreset must be a string"),
        (#"{"device": 1}"#, "device must be a string"),
    ]
    for (body, words) in refused {
        expectRefusal(try served.send("POST", "/control", headers: json, body: body), 400, mentioning: words, closes: false, body)
    }
    #expect(served.camera.focusMode == focusMode && served.session.sessionPreset == .cif352x288, "a refused setting changed the camera")
    // Whole names in each spelling are taken.
    for preset in ["hd1280x720", "AVCaptureSessionPreset640x480", "352x288", "VGA640X480"] {
        let answer = try served.send("POST", "/control", headers: json, body: #"{"sessionPreset": "\#(preset)"}"#)
        #expect(answer?.status == 200, "\(preset): \(answer?.reason ?? "")")
    }
    #expect(served.session.sessionPreset == .vga640x480)
    // An escaped NUL: libmicrohttpd's decoded path is a C string, cut there.
    for target in ["/status%00.jpg", "/files/photo-1.jpg%00.txt", "/status?token=a%00b"] {
        expectRefusal(try served.send("GET", target), 400, mentioning: "NUL", target)
    }
    // Long targets are answered, not dropped.
    for target in ["/status?q=" + String(repeating: "x", count: 20_000), "/" + String(repeating: "a", count: 20_000)] {
        expectRefusal(try served.send("GET", target), 414, mentioning: "8192 bytes", "a \(target.count)-byte target")
    }
    #expect(try served.send("GET", "/status?q=" + String(repeating: "x", count: 8_000))?.status == 200, "under the limit")
}

private func floodBody() throws {
    for (kind, count, token) in [("slowloris", 100, nil), ("idle", 70, nil), ("slowloris", 100, "s3cret-t0ken") as (String, Int, String?)] {
        let served = try ServedSession { $0.token = token }
        defer { served.stop() }
        let flood = try (0..<count).map { _ in try RawHTTPConnection(port: served.port) }
        if kind == "slowloris" {
            for connection in flood { connection.send("GET /status HTTP/1.1\r\nHost: \(served.host)\r\nX-Slow: ") }
        }
        // The slowloris connections keep sending a byte each while the client asks.
        let trickle = Trickle(flood, active: kind == "slowloris")
        let authorization = token.map { ["Authorization: Bearer \($0)"] } ?? []
        let answer = try served.send("GET", "/status", headers: authorization)
        trickle.stop()
        let stillOpen = flood.count { !$0.isClosedByServer }
        #expect(answer?.status == 200, "\(kind) flood of \(count)\(token == nil ? "" : " with a token"): \(answer?.status ?? 0)")
        #expect(stillOpen > 0, "answered only once the whole \(kind) flood was gone")
        if token != nil {
            // A client without the token is refused and its connection closed, keeping no slot.
            let refused = try RawHTTPConnection(port: served.port)
            let answer = refused.exchange(ServedSession.request("GET", "/status", host: served.host))
            expectRefusal(answer, 401, mentioning: "token", "no token")
            #expect(refused.read(timeout: 10).end == .closed)
        }
    }
}

/// Sends a byte on each connection every 100 ms on its own thread until stopped.
private final class Trickle: @unchecked Sendable {
    private let stopped = NSCondition()
    private var done = false
    private var finished = false

    init(_ connections: [RawHTTPConnection], active: Bool) {
        guard active else {
            finished = true
            return
        }
        Thread.detachNewThread { [self] in
            stopped.lock()
            while !done {
                stopped.unlock()
                for connection in connections { connection.send("a") }
                stopped.lock()
                _ = stopped.wait(until: Date(timeIntervalSinceNow: 0.1))
            }
            finished = true
            stopped.broadcast()
            stopped.unlock()
        }
    }

    func stop() {
        stopped.lock()
        done = true
        stopped.broadcast()
        while !finished { stopped.wait() }
        stopped.unlock()
    }
}

private func deadlineBody() throws {
    let served = try ServedSession { $0.requestTimeout = 1 }
    defer { served.stop() }
    // A byte every 100 ms: each well within libmicrohttpd's 60 s idle timeout, which every
    // byte restarts; the whole head would take 10 s.
    let slow = try RawHTTPConnection(port: served.port)
    slow.send("GET /status HTTP/1.1\r\nHost: \(served.host)\r\nX-Slow: ")
    var sent = 0
    while sent < 100, !slow.isClosedByServer, slow.send("a") {
        sent += 1
        usleep(100_000)
    }
    #expect(slow.isClosedByServer && sent < 100, "the server still waited after \(sent) bytes")
    #expect(slow.read(timeout: 5).data.isEmpty, "an unfinished request gets no answer")
    // A keep-alive connection idle after its answer is closed the same way.
    let idle = try RawHTTPConnection(port: served.port)
    #expect(idle.exchange(ServedSession.request("GET", "/status", host: served.host))?.status == 200)
    #expect(idle.read(timeout: 30).end == .closed, "an idle keep-alive connection stayed open")
}

private func perAddressBody() throws {
    let served = try ServedSession { $0.connectionsPerAddress = 3 }
    defer { served.stop() }
    // Three status streams from 127.0.0.2 (whole requests, being answered).
    var streams: [RawHTTPConnection] = []
    for _ in 0..<3 {
        let stream = try RawHTTPConnection(port: served.port, from: "127.0.0.2")
        stream.send(ServedSession.request("GET", "/events", host: served.host, version: "HTTP/1.0"))
        #expect(stream.read(timeout: 30) { $0.firstRange(of: Data("event: status".utf8)) != nil }.end == .complete)
        streams.append(stream)
    }
    // A fourth from that address is closed unanswered; another address is served.
    let fourth = try RawHTTPConnection(port: served.port, from: "127.0.0.2")
    fourth.send(ServedSession.request("GET", "/status", host: served.host))
    let refused = fourth.read(timeout: 30)
    #expect(refused.data.isEmpty && (refused.end == .closed || refused.end == .reset), "\(refused.end), \(refused.data.count) bytes")
    #expect(try served.send("GET", "/status")?.status == 200)
    #expect(streams.allSatisfy { !$0.isClosedByServer })
}
