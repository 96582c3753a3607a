import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Waits until `layer` has rendered `count` pictures; records an issue after 10 s.
@discardableResult
private func waitForPictures(_ layer: AVCaptureVideoPreviewLayer, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    eventually("the layer rendered \(count) pictures", within: .seconds(10), sourceLocation: sourceLocation) {
        layer.renderedFrameCount >= count
    }
}

/// The mean of B, G and R over a BGRA buffer's rows `rows` (fractions of the height).
private func meanLevel(_ buffer: CVPixelBuffer, rows: ClosedRange<Double> = 0...1) -> Double {
    var sum = 0.0, count = 0.0
    let height = CVPixelBufferGetHeight(buffer), width = CVPixelBufferGetWidth(buffer)
    for y in Int(rows.lowerBound * Double(height - 1))...Int(rows.upperBound * Double(height - 1)) {
        for x in stride(from: 0, to: width, by: 3) {
            let p = bgraPixel(buffer, x: Double(x) / Double(width), y: Double(y) / Double(height))
            sum += Double(p.b + p.g + p.r) / 3
            count += 1
        }
    }
    return sum / count
}

@Suite("Preview layer", .serialized)
struct PreviewLayerTests {
    /// Gravity places a 16:9 picture in a square as Apple's layer does; device and layer
    /// points convert both ways at every rotation, mirrored or not.
    @Test func geometry() {
        var g = PreviewGeometry(
            imageSize: CGSize(width: 1280, height: 720), rotation: 0, mirrored: false,
            bounds: CGRect(x: 0, y: 0, width: 400, height: 400), gravity: .resizeAspect)
        #expect(g.pictureRect == CGRect(x: 0, y: 87.5, width: 400, height: 225))
        #expect(g.devicePoint(fromLayerPoint: CGPoint(x: 200, y: 200)) == CGPoint(x: 0.5, y: 0.5))
        g.gravity = .resizeAspectFill
        #expect(abs(g.devicePoint(fromLayerPoint: .zero).x - 0.21875) < 1e-9)
        #expect(g.devicePoint(fromLayerPoint: .zero).y == 0)
        g.gravity = .resize
        #expect(g.pictureRect == g.bounds)
        // Portrait (90° clockwise): the layer's top left shows the sensor's bottom left.
        g.rotation = 90
        #expect(g.devicePoint(fromLayerPoint: .zero) == CGPoint(x: 0, y: 1))
        // A mirrored landscape preview (front camera): top left shows the sensor's top right.
        g.rotation = 0
        g.mirrored = true
        #expect(g.devicePoint(fromLayerPoint: .zero) == CGPoint(x: 1, y: 0))
        for gravity in [AVLayerVideoGravity.resizeAspect, .resizeAspectFill, .resize] {
            for rotation in [0, 90, 180, 270] {
                for mirrored in [false, true] {
                    let geometry = PreviewGeometry(
                        imageSize: CGSize(width: 1920, height: 1080), rotation: rotation, mirrored: mirrored,
                        bounds: CGRect(x: 0, y: 0, width: 375, height: 812), gravity: gravity)
                    for point in [CGPoint(x: 0.1, y: 0.2), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 0.9, y: 0.7)] {
                        let back = geometry.devicePoint(fromLayerPoint: geometry.layerPoint(fromDevicePoint: point))
                        #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9, "\(gravity) \(rotation) \(mirrored)")
                    }
                }
            }
        }
    }

    /// The layer connects to the session's camera when made with the session, or when the
    /// camera is added later; `sessionWithNoConnection` waits for a connection made by hand.
    @Test func connections() throws {
        let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        let session = AVCaptureSession()
        let early = AVCaptureVideoPreviewLayer(session: session)
        #expect(early.connection == nil && early.session === session)
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)
        let connection = try #require(early.connection)
        #expect(connection.output == nil && connection.videoPreviewLayer === early)
        #expect(session.connections.contains { $0 === connection })
        let manual = AVCaptureVideoPreviewLayer(sessionWithNoConnection: session)
        #expect(manual.connection == nil)
        let link = AVCaptureConnection(inputPort: input.ports[0], videoPreviewLayer: manual)
        #expect(session.canAddConnection(link))
        session.addConnection(link)
        #expect(manual.connection === link && !session.canAddConnection(link))
        // Another session's layer cannot take a connection here.
        let stranger = AVCaptureVideoPreviewLayer(sessionWithNoConnection: AVCaptureSession())
        #expect(!session.canAddConnection(AVCaptureConnection(inputPort: input.ports[0], videoPreviewLayer: stranger)))
        session.removeInput(input)
        #expect(early.connection == nil && manual.connection == nil)
        early.session = nil
        #expect(early.session == nil)
        #expect(early.videoGravity == .resizeAspect)
        // Front cameras are mirrored in preview by default, as on iOS.
        let front = AVCaptureSession()
        front.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:front-wide")!))
        let selfie = AVCaptureVideoPreviewLayer(session: front)
        #expect(selfie.connection?.isVideoMirrored == true)
    }

    /// A session with only a preview layer streams; the layer shows the camera's picture
    /// in its bounds, with black bars where the gravity leaves room, and calls its handler.
    @Test func previewWithoutOutputs() throws {
        let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        device.simulation?.seed = 7
        let session = AVCaptureSession()
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: device))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 10, y: 20, width: 320, height: 320)
        #expect(layer.bounds == CGRect(x: 0, y: 0, width: 320, height: 320))
        let handled = Atomic<Int>(0)
        layer.setDisplayHandler(queue: DispatchQueue(label: "preview.test")) { picture in
            if picture.width == 320 { handled.add(1, ordering: .relaxed) }
        }
        session.startRunning()
        defer { session.stopRunning() }
        #expect(layer.isPreviewing)
        waitForPictures(layer, 3)
        let picture = try #require(layer.contents as? CVPixelBuffer)
        #expect(CVPixelBufferGetWidth(picture) == 320 && CVPixelBufferGetHeight(picture) == 320)
        #expect(CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_32BGRA)
        // 16:9 in a square: 140 rows of bars, 70 above and 70 below the picture.
        #expect(meanLevel(picture, rows: 0...0.2) == 0)
        #expect(meanLevel(picture, rows: 0.8...1) == 0)
        #expect(meanLevel(picture, rows: 0.25...0.75) > 40)
        // Filling the square leaves no bars.
        layer.videoGravity = .resizeAspectFill
        let seen = layer.renderedFrameCount
        waitForPictures(layer, seen + 2)
        let filled = try #require(layer.contents as? CVPixelBuffer)
        #expect(meanLevel(filled, rows: 0...0.1) > 20)
        eventually("the display handler saw 3 pictures") { handled.load(ordering: .relaxed) >= 3 }
    }

    /// Turned to portrait, a 16:9 picture fills a 9:16 layer; the preview's mean level
    /// matches the camera's own frames.
    @Test func rotatedPreviewMatchesTheCamera() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA, pacing: .realTime)
        rig.collector.keptPixels = 1
        let layer = AVCaptureVideoPreviewLayer(session: rig.session)
        layer.frame = CGRect(x: 0, y: 0, width: 180, height: 320)
        let connection = try #require(layer.connection)
        connection.videoRotationAngle = 90
        rig.connection.videoRotationAngle = 90
        rig.session.startRunning()
        try rig.collector.waitForFrames(6)
        waitForPictures(layer, 3)
        rig.stop()
        let picture = try #require(layer.contents as? CVPixelBuffer)
        #expect(CVPixelBufferGetWidth(picture) == 180 && CVPixelBufferGetHeight(picture) == 320)
        let frame = try #require(rig.collector.newestFrameWithPixels?.buffer)
        #expect(CVPixelBufferGetWidth(frame) == 720)
        // No bars: the whole layer is picture, as bright on average as the camera's frame.
        #expect(meanLevel(picture, rows: 0...0.02) > 10)
        #expect(abs(meanLevel(picture) - meanLevel(frame)) < 6)
    }
}
