import Foundation
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// Streams hold their connections as long as a client likes; a flood of complete stream
/// requests must not take every slot (issue 26). Settings out of range are refused when the
/// server is made, never trapped on later.
@Suite("CaptureWebServer: stream limit and settings out of range")
struct StreamLimitTests {
    @Test("a flood of 64 stream requests leaves room for /status and the page; past the limit a stream is 503 with a reason")
    func streamFlood() async {
        await #expect(processExitsWith: .success) { try streamFloodBody() }
    }

    @Test("infinite, NaN, huge or negative timeouts and limits are a configuration error", arguments: OutOfRange.allCases)
    func outOfRange(_ setting: OutOfRange) {
        let name = setting.name
        var configuration = CaptureWebServer.Configuration(port: 0)
        setting.apply(to: &configuration)
        // Refused before the session is touched: no camera needed.
        do {
            let server = try CaptureWebServer(session: AVCaptureSession(), configuration: configuration)
            Issue.record("\(name) was taken: \(server.configuration)")
        } catch {
            guard case .badConfiguration(let reason) = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(reason.contains(name) && !reason.contains("\n"), "\(reason)")
        }
    }
}

private func streamFloodBody() throws {
    let served = try ServedSession()
    defer { served.stop() }
    // A local process asks for 64 streams, whole requests (no token needed on loopback), and
    // never reads them.
    var admitted: [RawHTTPConnection] = []
    var refused = 0
    for index in 0..<64 {
        let path = index.isMultiple(of: 2) ? "/events" : "/stream.mjpg"
        let connection = try RawHTTPConnection(port: served.port)
        connection.send(ServedSession.request("GET", path, host: served.host, version: "HTTP/1.0"))
        let head = responseHead(connection)
        if head.status == 200 {
            admitted.append(connection)
        } else {
            expectRefusal(connection.response().response, 503, mentioning: "streams", "stream \(index + 1): \(head.head)")
            #expect(connection.read(timeout: 30).end != .timedOut, "a refused stream's connection stayed open")
            refused += 1
        }
    }
    // A quarter of the 64 connections stays for other requests.
    #expect(admitted.count == 48 && refused == 16, "\(admitted.count) streams admitted, \(refused) refused")
    #expect(try served.send("GET", "/status")?.status == 200, "the flood locked /status out")
    #expect(try served.send("GET", "/")?.status == 200, "the flood locked the page out")
    let zoom = try served.send("POST", "/control", headers: ["Content-Type: application/json"], body: #"{"videoZoomFactor": 1.5}"#)
    #expect(zoom?.status == 200, "the flood locked /control out")
    #expect(admitted.allSatisfy { !$0.isClosedByServer }, "an admitted stream was closed")
    // A stream that ends gives its slot back.
    admitted.removeFirst()
    eventually("a new stream is admitted once one has ended", checkingEvery: .milliseconds(50)) {
        guard let connection = try? RawHTTPConnection(port: served.port) else { return false }
        connection.send(ServedSession.request("GET", "/events", host: served.host, version: "HTTP/1.0"))
        guard responseHead(connection).status == 200 else { return false }
        admitted.append(connection)
        return true
    }
}

/// A setting out of its range, and the configuration name its error must give.
enum OutOfRange: CaseIterable, Sendable {
    case infiniteTimeout, nanTimeout, hugeTimeout, negativeTimeout, hugeLimit, limitAboveUInt32, limitOfOne, hugePerAddress, zeroPerAddress

    var name: String {
        switch self {
        case .infiniteTimeout, .nanTimeout, .hugeTimeout, .negativeTimeout: "requestTimeout"
        case .hugeLimit, .limitAboveUInt32, .limitOfOne: "connectionLimit"
        case .hugePerAddress, .zeroPerAddress: "connectionsPerAddress"
        }
    }

    func apply(to configuration: inout CaptureWebServer.Configuration) {
        switch self {
        case .infiniteTimeout: configuration.requestTimeout = .infinity
        case .nanTimeout: configuration.requestTimeout = .nan
        case .hugeTimeout: configuration.requestTimeout = 1e300
        case .negativeTimeout: configuration.requestTimeout = -1
        case .hugeLimit: configuration.connectionLimit = .max
        case .limitAboveUInt32: configuration.connectionLimit = Int(UInt32.max) + 2
        case .limitOfOne: configuration.connectionLimit = 1
        case .hugePerAddress: configuration.connectionsPerAddress = .max
        case .zeroPerAddress: configuration.connectionsPerAddress = 0
        }
    }
}
