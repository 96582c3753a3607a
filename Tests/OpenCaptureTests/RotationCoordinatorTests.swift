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

    /// AVCam's pattern: observe the preview angle with `.new` and apply it; the capture
    /// angle notifies too, with old and new values, and nothing comes after invalidation.
    @Test func anglesAreKeyValueObservable() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.physicalOrientation = .landscapeRight
        defer { device.physicalOrientation = .landscapeRight }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        defer { for input in session.inputs { session.removeInput(input) } }
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: layer)
        let preview = KVORecorder()
        let capture = KVORecorder()
        let observations = [
            coordinator.observe(\.videoRotationAngleForHorizonLevelPreview, options: [.initial, .new]) { _, change in preview.record(change) },
            coordinator.observe(\.videoRotationAngleForHorizonLevelCapture, options: [.old, .new]) { _, change in capture.record(change) },
        ]
        device.physicalOrientation = .portrait
        device.physicalOrientation = .portrait  // no change, no call
        device.physicalOrientation = .landscapeLeft
        #expect(preview.calls.map(\.new) == ["0.0", "90.0", "180.0"])
        #expect(capture.calls.map { "\($0.old ?? "-")>\($0.new ?? "-")" } == ["0.0>90.0", "90.0>180.0"])
        #expect(capture.calls.allSatisfy { $0.queue == "caller" && !$0.isPrior })
        observations.forEach { $0.invalidate() }
        device.physicalOrientation = .landscapeRight
        #expect(capture.calls.count == 2)
    }
}
