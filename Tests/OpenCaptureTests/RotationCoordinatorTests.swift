import Foundation
import Testing

@testable import OpenCapture

@Suite("Rotation coordinator", .serialized)
struct RotationCoordinatorTests {
    /// An upright camera needs no rotation; held in portrait, 90°; the preview angle is 0
    /// without a layer; applied to connections, the angles give level frames.
    @Test func anglesFollowThePhysicalOrientation() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        defer { device.physicalOrientation = .landscapeRight }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: layer)
        let bare = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: nil)
        #expect(coordinator.device === device && coordinator.previewLayer === layer)
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == 0)
        for (orientation, angle) in [
            (AVCaptureVideoOrientation.portrait, CGFloat(90)), (.landscapeLeft, 180), (.portraitUpsideDown, 270), (.landscapeRight, 0),
        ] {
            device.physicalOrientation = orientation
            #expect(coordinator.videoRotationAngleForHorizonLevelCapture == angle)
            #expect(coordinator.videoRotationAngleForHorizonLevelPreview == angle)
            #expect(bare.videoRotationAngleForHorizonLevelPreview == 0)
            let connection = try #require(layer.connection)
            #expect(connection.isVideoRotationAngleSupported(coordinator.videoRotationAngleForHorizonLevelPreview))
        }
        // The orientation belongs to the device: another handle on it sees the same.
        device.physicalOrientation = .portrait
        #expect(AVCaptureDevice(uniqueID: "sim:back-wide")?.physicalOrientation == .portrait)
    }
}
