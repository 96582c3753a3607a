import Foundation
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// Generated requests against a running server: random methods, targets, versions, headers
/// (Host, Origin, Content-Type, Content-Length, chunked framing, junk) and bodies (JSON of
/// the control names, garbage), some cut short, from a fixed seed so a failure repeats.
@Suite("CaptureWebServer: fuzzed requests")
struct RequestFuzzTests {
    @Test("300 generated requests: each is answered with a valid status or closed, and the server serves a good request after")
    func fuzzedRequests() async {
        // In a child process: a crash of the server is the child's, and settings the fuzz
        // happens to make valid stay with it.
        await #expect(processExitsWith: .success) { try fuzzBody(seed: 26, rounds: 300) }
    }
}

private func fuzzBody(seed: UInt64, rounds: Int) throws {
    let served = try ServedSession()
    defer { served.stop() }
    var random = SplitMix64(seed: seed)
    var answered = 0
    for round in 0..<rounds {
        let request = FuzzRequest(&random, host: served.host)
        let connection = try RawHTTPConnection(port: served.port)
        connection.send(request.bytes)
        // The end of the request stream: a request cut short, or one whose declared body is
        // longer than what came, is then over for the server too.
        connection.finishSending()
        let (data, end) = connection.read(timeout: 20) { RawHTTPConnection.status(in: $0) != nil }
        if data.isEmpty {
            #expect(end == .closed || end == .reset, "round \(round) (\(request.summary)): neither answered nor closed (\(end))")
        } else {
            answered += 1
            #expect(RawHTTPConnection.status(in: data) != nil, "round \(round) (\(request.summary)): \(String(decoding: data.prefix(60), as: UTF8.self).debugDescription)")
        }
    }
    // Most are answered (a refusal counts): the fuzz reaches the server's checks and routes.
    #expect(answered > rounds / 2, "\(answered) of \(rounds) answered")
    let status = try served.send("GET", "/status")
    #expect(status?.status == 200 && jsonObject(status?.body ?? Data())["frames"] != nil)
    let control = try served.send("POST", "/control", headers: ["Content-Type: application/json"], body: #"{"exposureTargetBias": 0}"#)
    #expect(control?.status == 200, "\(control?.reason ?? "")")
}

/// One generated request: its bytes and a short description for failure messages.
private struct FuzzRequest {
    let bytes: Data
    let summary: String

    init(_ random: inout SplitMix64, host: String) {
        func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func junk(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }) }

        let method = chance(85)
            ? pick(["GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT", "get"])
            : String(decoding: junk(Int.random(in: 0...8, using: &random)), as: UTF8.self)
        var target = pick([
            "/", "/status", "/snapshot.jpg", "/control", "/controls", "/photo", "/record", "/events", "/stream.mjpg", "/files/photo-1.jpg",
            "/files/../../etc/passwd", "/nope", "*", "http://\(host)/status", "", "/%00", "/status%00.jpg", "/%ff%fe", "/%2e%2e/%2e%2e",
        ])
        if chance(30) { target += "?" + pick(["token=x", "token=%00", "a=b&&c", "=", "%", "q=" + String(repeating: "z", count: Int.random(in: 0...12_000, using: &random))]) }
        if chance(10) { target += String(decoding: junk(Int.random(in: 1...20, using: &random)), as: UTF8.self) }
        let version = chance(80) ? pick(["HTTP/1.1", "HTTP/1.0"]) : pick(["HTTP/2.0", "HTTP/1.1x", "", "HTTP/9.9", "http/1.1"])
        let newline = chance(90) ? "\r\n" : "\n"

        var body = Data()
        if chance(50) {
            if chance(70) {
                let names = ["iso", "lensPosition", "videoZoomFactor", "sessionPreset", "device", "focusMode", "tap", "index", "value", "action", "torchMode", "frameRate", "activeFormat"]
                let values = ["true", "1", "-1", "0.5", "1e308", "\"x\"", "null", "[1, 2]", "{}", "\"hd1280x720\"", "\"start\"", "2.5", "\"\""]
                let pairs = (0..<Int.random(in: 0...3, using: &random)).map { _ in "\"\(pick(names))\": \(pick(values))" }
                body = Data(("{" + pairs.joined(separator: ", ") + (chance(10) ? "" : "}")).utf8)
            } else {
                body = junk(Int.random(in: 1...(chance(10) ? 20_000 : 200), using: &random))
            }
        }
        var headers: [String] = []
        if chance(85) {
            headers.append("Host: " + (chance(80) ? host : pick(["evil.example", "localhost", "[::1]", "127.0.0.1:99999", "", ":", "a b"])))
        }
        if chance(10) { headers.append("Host: second.example") }
        if chance(50) { headers.append("Content-Type: " + pick(["application/json", "application/json; charset=utf-8", "text/plain", "", "application/jsonx"])) }
        if chance(30) { headers.append("Origin: " + pick(["http://\(host)", "http://evil.example", "null", ""])) }
        let chunked = chance(10)
        if chunked {
            headers.append("Transfer-Encoding: chunked")
            var framed = Data()
            if chance(80) { framed += Data(String(body.count, radix: 16).utf8) + Data("\r\n".utf8) + body + Data("\r\n0\r\n\r\n".utf8) } else { framed = junk(30) }
            body = framed
        } else if !body.isEmpty || chance(10) {
            headers.append("Content-Length: " + (chance(80) ? "\(body.count)" : pick(["-1", "99999999999999999999", "abc", "\(body.count + 10)", "0", "1, 2"])))
        }
        if chance(10) { headers.append("Expect: 100-continue") }
        if chance(10) { headers.append(pick(["Connection: close", "Connection: keep-alive", "Connection: Upgrade", "Upgrade: websocket"])) }
        if chance(15) { headers.append(pick(["X-Junk: " + String(repeating: "j", count: Int.random(in: 0...40_000, using: &random)), "NoColon", " folded", "Bad Name: v", ": empty", "X-Ctl: \u{1}\u{7f}"])) }
        if chance(5) { headers.append("Authorization: " + pick(["Bearer ", "Bearer x", "Basic Og=="])) }

        var bytes = Data("\(method) \(target) \(version)".utf8) + Data(newline.utf8)
        for header in headers { bytes += Data(header.utf8) + Data(newline.utf8) }
        bytes += Data(newline.utf8) + body
        // A third are cut short at a random byte.
        if chance(33), bytes.count > 1 { bytes = bytes.prefix(Int.random(in: 1..<bytes.count, using: &random)) }
        self.bytes = bytes
        summary = "\(method.debugDescription) \(target.prefix(40).debugDescription) \(version), \(headers.count) headers, \(bytes.count) bytes"
    }
}
