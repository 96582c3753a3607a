import CaptureCore
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// An output of a kind OpenCapture does not know: the consumer protocol alone gets it into a
/// session and its frames out of the router, converted, turned and scaled as it asks.
private final class ThumbnailOutput: AVCaptureOutput, RouteConsumer, @unchecked Sendable {
    struct Frame: Sendable {
        let width: Int, height: Int, format: OSType, describedFormat: OSType?
        let rotation: Int, mirrored: Bool
    }

    let pools = OutputPools()
    private let frames = Mutex<[Frame]>([])
    let arrived: Completion<Void>
    private let wanted: Int

    init(wanted: Int) {
        self.wanted = wanted
        arrived = Completion("\(wanted) thumbnails")
    }

    var received: [Frame] { frames.withLock { $0 } }

    var soleKindInSession: String? { "thumbnail" }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? {
        .converted(FrameConversion(format: .bgra, requestedSize: (160, 90), pools: pools))
    }

    func take(_ frame: RoutedFrame) {
        let count = frames.withLock { frames in
            frames.append(Frame(
                width: frame.buffer.width, height: frame.buffer.height, format: frame.buffer.format.rawValue,
                describedFormat: frame.formatDescription?.mediaSubTypeCode, rotation: frame.rotation, mirrored: frame.mirrored))
            return frames.count
        }
        if count == wanted { arrived.fulfil(()) }
    }
}

/// An output subclass that is no consumer: nothing can feed it.
private final class InertOutput: AVCaptureOutput, @unchecked Sendable {}

/// An output of a new kind with a say in the session's wide-colour choice.
private final class ColourOutput: AVCaptureOutput, RouteConsumer, @unchecked Sendable {
    let wideColorPreference: WideColorPreference
    init(_ preference: WideColorPreference) { wideColorPreference = preference }
}

@Suite("Route consumer", .serialized)
struct RouteConsumerTests {
    @Test("a new kind of output is one RouteConsumer conformance: the session takes one of it, the router hands it converted, turned, scaled frames")
    func newKindOfOutput() throws {
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        camera.simulation?.pacing = .virtual
        defer { camera.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = ThumbnailOutput(wanted: 5)
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        // One of a kind, as a movie or metadata output: a second is refused. An output no
        // router can feed is refused too.
        #expect(!session.canAddOutput(ThumbnailOutput(wanted: 1)))
        #expect(!session.canAddOutput(InertOutput()))
        let connection = try #require(output.connection(with: .video))
        connection.videoRotationAngle = 90
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        try output.arrived.wait(within: .seconds(20))
        let frames = output.received
        // Turned a quarter (portrait), scaled to the size asked for turned the same way, in
        // BGRA, described as such, with nothing left for the consumer to turn.
        #expect(frames.allSatisfy { $0.width == 90 && $0.height == 160 }, "\(frames.map { "\($0.width)x\($0.height)" })")
        #expect(frames.allSatisfy { $0.format == kCVPixelFormatType_32BGRA && $0.describedFormat == kCVPixelFormatType_32BGRA })
        #expect(frames.allSatisfy { $0.rotation == 0 && !$0.mirrored })
        // The camera renders what its only converting consumer asks for.
        #expect(AVCaptureSession.renderFormat(for: session.connections) == .bgra)
    }

    @Test("a new kind of output takes part in the session's wide-colour choice through its consumer answer alone")
    func newKindOfOutputChoosesColour() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        defer {
            try? device.lockForConfiguration()
            device.core.format.colorSpace = 0
            device.unlockForConfiguration()
        }
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(AVCapturePhotoOutput())
        #expect(device.activeColorSpace == .P3_D65, "a photo output on a P3 format")
        let indifferent = ColourOutput(.indifferent)
        session.addOutput(indifferent)
        #expect(device.activeColorSpace == .P3_D65, "an output with no say changes nothing")
        session.removeOutput(indifferent)
        let standard = ColourOutput(.needsStandard)
        session.addOutput(standard)
        #expect(device.activeColorSpace == .sRGB, "an output that needs sRGB wins over the photo output")
        session.removeOutput(standard)
        #expect(device.activeColorSpace == .P3_D65)
    }
}
