import Foundation
import MediaIO
import OpenCapture
import OpenCaptureWeb
import Testing
import TestSupport

/// The library type an app embeds: CaptureWebServer on the app's own session. Each test
/// runs in a child process (an exit test): unplugging a simulated camera is for good.
@Suite("CaptureWebServer in an app's session")
struct CaptureWebServerTests {
    @Test("a tap on the served picture focuses there through the connection's rotation; unplugging shows no signal")
    func tapAndNoSignal() async {
        await #expect(processExitsWith: .success) {
            let camera = AVCaptureDevice.default(for: .video)!
            let session = AVCaptureSession()
            session.sessionPreset = .cif352x288
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let server = try CaptureWebServer(session: session, configuration: .init(port: 0))
            // The served picture is turned a quarter clockwise: its top-left corner is the
            // sensor's bottom-left, (0, 1) in device coordinates.
            let connection = session.outputs.last!.connection(with: .video)!
            connection.videoRotationAngle = 90
            try server.start()
            session.startRunning()
            let base = server.url!.absoluteString
            let snapshot = try curl(base + "snapshot.jpg")
            let frame = try JPEGEncoder.decode(snapshot)
            #expect(frame.width == 288 && frame.height == 352, "rotated: \(frame.width)x\(frame.height)")
            _ = try curl(base + "control", ["-X", "POST", "-d", #"{"tap": [0.1, 0.2]}"#])
            // Served (0.1, 0.2) of a 90° clockwise picture is the sensor's (0.2, 0.9).
            let point = camera.focusPointOfInterest
            #expect(abs(point.x - 0.2) < 0.01 && abs(point.y - 0.9) < 0.01, "\(point)")
            #expect(camera.focusMode == .autoFocus)
            camera.simulation!.disconnect()
            eventually("the stream shows the no-signal picture") {
                guard let data = try? curl(base + "snapshot.jpg"), let picture = try? JPEGEncoder.decode(data) else { return false }
                // Half-level white in the top-left bar, the dark band at the bottom.
                let base = picture.planeAddress(0).assumingMemoryBound(to: UInt8.self)
                let top = Int(base[4 * 2 + 2 * picture.bytesPerRow(0)])
                let bottom = Int(base[4 * 2 + (picture.height - 3) * picture.bytesPerRow(0)])
                return abs(top - 128) < 12 && abs(bottom - 24) < 12
            }
            let status = try JSONSerialization.jsonObject(with: try curl(base + "status")) as? [String: Any]
            #expect((status?["device"] as? [String: Any])?["connected"] as? Bool == false)
            server.stop()
            session.stopRunning()
        }
    }
}

/// The body curl reads from `url` (`-sS`, failing on HTTP errors).
func curl(_ url: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
    let outcome = try ChildProcess.run(
        "/usr/bin/curl", ["-sS", "--fail", "--max-time", "10"] + asThePagePosts(arguments) + [url], sourceLocation: sourceLocation)
    guard outcome.status == 0 else { throw CurlFailure(status: outcome.status) }
    return outcome.stdoutData
}

struct CurlFailure: Error { let status: Int32 }

/// The HTTP status and body curl gets from `url` (`-sS`, any status).
func curlStatus(_ url: String, _ arguments: [String] = []) throws -> (status: Int, body: Data) {
    let data = try curlOutput(["-sS", "--max-time", "20", "-w", "\n%{http_code}"] + asThePagePosts(arguments) + [url])
    let split = data.lastIndex(of: 0x0A) ?? data.endIndex
    return (Int(String(decoding: data[data.index(after: split)...], as: UTF8.self)) ?? 0, Data(data[data.startIndex..<split]))
}

/// curl arguments with `Content-Type: application/json` added to a POST, as the served page
/// sends it (the server refuses other bodies), unless they name a content type themselves.
func asThePagePosts(_ arguments: [String]) -> [String] {
    let posts = arguments.contains { ["-d", "--data", "--data-binary", "POST"].contains($0) }
    let typed = arguments.contains { $0.lowercased().hasPrefix("content-type:") }
    return posts && !typed ? ["-H", "Content-Type: application/json"] + arguments : arguments
}

/// A JSON object from a body (empty when it is not one).
func jsonObject(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

private func curlOutput(_ arguments: [String]) throws -> Data {
    try ChildProcess.run("/usr/bin/curl", arguments).stdoutData
}
