import Foundation
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// What another site's page can make a browser do with the server (issue 26): frame the
/// page so a tricked click records or zooms, embed the stream (`<img>`, a GET that makes the
/// session's controls active) or the pictures, send a preflight, or smuggle a second Host.
/// Each test runs in a child process (an exit test), as in `HostileRequestTests`.
@Suite("CaptureWebServer: other sites cannot frame, embed or drive it")
struct CrossSiteRequestTests {
    @Test("every response forbids framing and embedding by other sites")
    func framingHeaders() async {
        await #expect(processExitsWith: .success) { try framingBody() }
    }

    @Test("requests another site's page sends (Sec-Fetch-Site, Origin) are refused on every path, the page's own served")
    func otherSitesRequests() async {
        await #expect(processExitsWith: .success) { try otherSiteBody() }
    }

    @Test("a foreign Host is refused on every path without naming the server's names; a repeated Host or Origin is 400")
    func foreignAndRepeatedHosts() async {
        await #expect(processExitsWith: .success) { try foreignHostBody() }
    }
}

/// The status and lower-cased head of a response whose body may never end (a stream): read
/// up to the blank line only.
func responseHead(_ connection: RawHTTPConnection, timeout: Double = 30) -> (status: Int?, head: String) {
    let (data, _) = connection.read(timeout: timeout) { $0.firstRange(of: Data("\r\n\r\n".utf8)) != nil }
    let end = data.firstRange(of: Data("\r\n\r\n".utf8))?.lowerBound ?? data.endIndex
    // Each header line, the last included, ends in CRLF.
    return (RawHTTPConnection.status(in: data), String(decoding: data[data.startIndex..<end], as: UTF8.self).lowercased() + "\r\n")
}

private func framingBody() throws {
    let served = try ServedSession()
    defer { served.stop() }
    let framing = ["x-frame-options: deny", "content-security-policy: frame-ancestors 'none'", "x-content-type-options: nosniff",
        "cross-origin-resource-policy: same-origin"]
    // Whole answers, a refusal among them, and the two streams' heads.
    for (path, status) in [("/", 200), ("/snapshot.jpg", 200), ("/status", 200), ("/nope", 404)] {
        let connection = try RawHTTPConnection(port: served.port)
        connection.send(ServedSession.request("GET", path, host: served.host, version: "HTTP/1.0"))
        let answer = responseHead(connection)
        #expect(answer.status == status, "\(path): \(answer.head)")
        for header in framing { #expect(answer.head.contains("\r\n" + header + "\r\n"), "\(path) lacks \(header): \(answer.head)") }
    }
    for path in ["/stream.mjpg", "/events"] {
        let connection = try RawHTTPConnection(port: served.port)
        connection.send(ServedSession.request("GET", path, host: served.host, version: "HTTP/1.0"))
        let answer = responseHead(connection)
        #expect(answer.status == 200, "\(path): \(answer.head)")
        for header in framing { #expect(answer.head.contains("\r\n" + header + "\r\n"), "\(path) lacks \(header): \(answer.head)") }
    }
}

private func otherSiteBody() throws {
    let served = try ServedSession()
    defer { served.stop() }
    // A capture control, so a stream that reaches its route shows: the controls go active.
    let slider = AVCaptureSlider("Strength", symbolName: "wand.and.stars", in: 0...10)
    slider.setActionQueue(DispatchQueue(label: "cross-site.slider")) { _ in }
    served.session.addControl(slider)
    // Controls are active only with a delegate (held weakly).
    let delegate = QuietControlsDelegate()
    served.session.setControlsDelegate(delegate, queue: DispatchQueue(label: "cross-site.controls"))
    defer { withExtendedLifetime(delegate) {} }
    let json = "Content-Type: application/json"
    let paths = ["/", "/stream.mjpg", "/events", "/snapshot.jpg", "/status", "/files/photo-1.jpg"]
    // <img>, <iframe>, <video>, fetch from another site or a sibling one (another port on
    // localhost is same-site), and a GET carrying another site's Origin.
    for path in paths {
        for header in ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Site: same-site", "Sec-Fetch-Site: Cross-Site", "Origin: http://evil.example",
            "Origin: http://localhost:9999", "Origin: null"]
        {
            expectRefusal(try served.send("GET", path, headers: [header]), 403, mentioning: "another site", "GET \(path) with \(header)")
        }
    }
    #expect(!served.session.areControlsActive, "a refused stream made the controls active")
    // Through a POST too, though its body is well-formed JSON.
    expectRefusal(
        try served.send("POST", "/control", headers: ["Sec-Fetch-Site: cross-site", json], body: #"{"videoZoomFactor": 2.5}"#), 403,
        mentioning: "another site", "a cross-site POST")
    #expect(served.camera.videoZoomFactor == 1, "a refused request zoomed")
    // A CORS preflight is refused, and grants nothing.
    let preflight = try served.send(
        "OPTIONS", "/control", headers: ["Origin: http://evil.example", "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type"])
    expectRefusal(preflight, 403, mentioning: "another site", "a preflight")
    #expect(preflight?.headers.keys.allSatisfy { !$0.hasPrefix("access-control-allow") } == true, "\(preflight?.headers ?? [:])")
    // A typed URL (none), the page's own requests (same-origin, its own Origin), a tool
    // sending neither.
    for headers in [["Sec-Fetch-Site: none"], ["Sec-Fetch-Site: same-origin", "Origin: http://\(served.host)"], []] {
        #expect(try served.send("GET", "/", headers: headers)?.status == 200, "\(headers)")
        #expect(try served.send("GET", "/status", headers: headers)?.status == 200, "\(headers)")
    }
    let own = try served.send(
        "POST", "/control", headers: ["Sec-Fetch-Site: same-origin", "Origin: http://\(served.host)", json], body: #"{"videoZoomFactor": 2.5}"#)
    #expect(own?.status == 200 && served.camera.videoZoomFactor == 2.5, "\(own?.status ?? 0) \(own?.reason ?? "")")
    // The page's own stream does reach its route.
    let stream = try RawHTTPConnection(port: served.port)
    stream.send(ServedSession.request("GET", "/stream.mjpg", host: served.host, headers: ["Sec-Fetch-Site: same-origin"], version: "HTTP/1.0"))
    #expect(responseHead(stream).status == 200)
    eventually("the page's own stream makes the controls active") { served.session.areControlsActive }
}

private func foreignHostBody() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cross-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let served = try ServedSession {
        $0.saveDirectory = folder
        $0.allowedHosts = ["cam.example"]
    }
    defer { served.stop() }
    #expect(served.server.hostNames == ["127.0.0.1", "[::1]", "cam.example", "localhost"])
    let photo = try served.send("POST", "/photo", headers: ["Content-Type: application/json"], body: "{}")
    #expect(photo?.status == 200, "\(photo?.reason ?? "")")
    for path in ["/", "/stream.mjpg", "/events", "/snapshot.jpg", "/status", "/files/photo-1.jpg", "/nope"] {
        let answer = try served.send("GET", path, headers: ["Host: attacker.example:\(served.port)"])
        expectRefusal(answer, 403, mentioning: "not a name of this server", "GET \(path)")
        // A rebinding page reads the refusal: it must not learn the names that would pass.
        let reason = answer?.reason ?? ""
        #expect(["localhost", "127.0.0.1", "cam.example"].allSatisfy { !reason.contains($0) }, "\(reason)")
    }
    expectRefusal(try served.send("OPTIONS", "/control", headers: ["Host: attacker.example"]), 403, mentioning: "not a name", "OPTIONS")
    // Two Hosts, the server's own either first or last; two Origins, one of them its own.
    let twice: [[String]] = [
        ["Host: \(served.host)", "Host: attacker.example"], ["Host: attacker.example", "Host: \(served.host)"],
        ["Host: \(served.host)", "Host: \(served.host)"], ["Origin: http://\(served.host)", "Origin: http://evil.example"],
        ["Sec-Fetch-Site: same-origin", "Sec-Fetch-Site: cross-site"],
    ]
    for headers in twice {
        let name = headers[0].split(separator: ":")[0].lowercased()
        expectRefusal(try served.send("GET", "/status", headers: headers), 400, mentioning: "\(name) header more than once", "\(headers)")
    }
}

/// A controls delegate that only needs to be there.
private final class QuietControlsDelegate: NSObject, AVCaptureSessionControlsDelegate, @unchecked Sendable {
    func sessionControlsDidBecomeActive(_ session: AVCaptureSession) {}
    func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) {}
    func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) {}
    func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) {}
}
