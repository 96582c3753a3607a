// AVCaptureVideoPreviewLayer.h (iOS 18 SDK, with iOS 26's deferred start), spelled as iOS
// code spells it.
import AVFoundation
import Foundation
import QuartzCore
import Testing

/// Touches every declaration of AVCaptureVideoPreviewLayer.h; compiled, never called.
func spellAVCaptureVideoPreviewLayer(_ session: AVCaptureSession, _ object: AVMetadataObject) {
    let layer: AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer(session: session)
    let bare: AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer(sessionWithNoConnection: session)
    let empty: AVCaptureVideoPreviewLayer = AVCaptureVideoPreviewLayer()
    let asLayer: CALayer = layer
    layer.session = session
    let shown: AVCaptureSession? = layer.session
    layer.setSessionWithNoConnection(session)
    let connection: AVCaptureConnection? = layer.connection
    layer.videoGravity = .resizeAspectFill
    let gravities: [AVLayerVideoGravity] = [layer.videoGravity, .resize, .resizeAspect, .resizeAspectFill]
    let previewing: Bool = layer.isPreviewing
    let devicePoint: CGPoint = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 1, y: 1))
    let layerPoint: CGPoint = layer.layerPointConverted(fromCaptureDevicePoint: CGPoint(x: 0.5, y: 0.5))
    let metadataRect: CGRect = layer.metadataOutputRectConverted(fromLayerRect: CGRect(x: 0, y: 0, width: 10, height: 10))
    let rect: CGRect = layer.layerRectConverted(fromMetadataOutputRect: CGRect(x: 0, y: 0, width: 1, height: 1))
    let transformed: AVMetadataObject? = layer.transformedMetadataObject(for: object)
    _ = transformed
    let deferredSupported: Bool = layer.isDeferredStartSupported
    layer.isDeferredStartEnabled = false
    let deferred: Bool = layer.isDeferredStartEnabled
    _ = (bare, empty, asLayer, shown, connection, gravities, previewing, devicePoint, layerPoint, metadataRect, rect)
    _ = (deferredSupported, deferred)
}

/// The iOS 4 orientation and mirroring members, deprecated in iOS 6; compiled, never called.
@available(*, deprecated)
func spellAVCaptureVideoPreviewLayerDeprecated(_ layer: AVCaptureVideoPreviewLayer) {
    let orientationSupported: Bool = layer.isOrientationSupported
    layer.orientation = .landscapeRight
    let orientation: AVCaptureVideoOrientation = layer.orientation
    let mirroringSupported: Bool = layer.isMirroringSupported
    layer.automaticallyAdjustsMirroring = false
    let automatic: Bool = layer.automaticallyAdjustsMirroring
    layer.isMirrored = true
    let mirrored: Bool = layer.isMirrored
    _ = (orientationSupported, orientation, mirroringSupported, automatic, mirrored)
}

@Suite("AVCaptureVideoPreviewLayer spelling", .serialized)
struct AVCaptureVideoPreviewLayerSpellingTests {
    @Test("a layer on a session with a camera is connected, not previewing until the session runs; deferred start is off")
    func connectedLayer() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        #expect(layer.session === session)
        let connection = try #require(layer.connection)
        #expect(connection.videoPreviewLayer === layer)
        #expect(!layer.isPreviewing)
        #expect(layer.videoGravity == .resizeAspect)
        #expect(layer.isDeferredStartSupported && !layer.isDeferredStartEnabled)
        #expect(AVCaptureVideoPreviewLayer(sessionWithNoConnection: session).connection == nil)
    }

    @Test("the deprecated orientation and mirroring members read and write the connection")
    @available(*, deprecated)
    func deprecatedMembersForwardToTheConnection() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let connection = try #require(layer.connection)
        #expect(layer.isOrientationSupported && layer.isMirroringSupported)
        layer.orientation = .landscapeLeft
        #expect(connection.videoOrientation == .landscapeLeft)
        layer.automaticallyAdjustsMirroring = false
        layer.isMirrored = true
        #expect(!connection.automaticallyAdjustsVideoMirroring && connection.isVideoMirrored && layer.isMirrored)
        #expect(!AVCaptureVideoPreviewLayer().isOrientationSupported)
    }
}

/// A layer subclass overriding `setSessionWithNoConnection(_:)` with Apple's signature.
final class SpellingPreviewLayer: AVCaptureVideoPreviewLayer, @unchecked Sendable {
    override func setSessionWithNoConnection(_ session: AVCaptureSession) {
        super.setSessionWithNoConnection(session)
    }
}
