import Foundation
import Testing
@testable import OpenCapture

/// iOS 26's Cinematic video answers as Apple's headers do for hardware without it: no format
/// supports it, the focus calls and the simulated aperture are refused with Apple's reasons,
/// and metadata objects carry no Cinematic focus.
@Suite("Cinematic video (iOS 26) on hardware without it")
struct CinematicVideoTests {
    @Test("every format of every camera: unsupported, zoom 1 to 1, no frame rates, simulated apertures 0")
    func formats() {
        let cameras = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInTripleCamera, .external], mediaType: .video, position: .unspecified).devices
        #expect(!cameras.isEmpty)
        for format in cameras.flatMap(\.formats) {
            #expect(!format.isCinematicVideoCaptureSupported)
            #expect(format.videoMinZoomFactorForCinematicVideo == 1 && format.videoMaxZoomFactorForCinematicVideo == 1)
            #expect(format.videoFrameRateRangeForCinematicVideo == nil)
            #expect(format.defaultSimulatedAperture == 0 && format.minSimulatedAperture == 0 && format.maxSimulatedAperture == 0)
        }
        #expect(cameras.allSatisfy { $0.cinematicVideoCaptureSceneMonitoringStatuses.isEmpty })
    }

    @Test("the focus calls throw Apple's reason, which names the format's support flag")
    func focusIsRefused() throws {
        let device = try #require(AVCaptureDevice.default(for: .video))
        let reason = "Not supported - use activeFormat.isCinematicVideoCaptureSupported"
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDevice setCinematicVideoTrackingFocusWithDetectedObjectID:focusMode:] \(reason)")) {
            try device.setCinematicVideoTrackingFocusChecked(detectedObjectID: 1, focusMode: .strong)
        }
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDevice setCinematicVideoTrackingFocusAtPoint:focusMode:] \(reason)")) {
            try device.setCinematicVideoTrackingFocusChecked(at: CGPoint(x: 0.5, y: 0.5), focusMode: .weak)
        }
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDevice setCinematicVideoFixedFocusAtPoint:focusMode:] \(reason)")) {
            try device.setCinematicVideoFixedFocusChecked(at: CGPoint(x: 0.5, y: 0.5), focusMode: .none)
        }
        #expect(AVCaptureDevice.CinematicVideoFocusMode(rawValue: 1) == .strong && AVCaptureDevice.CinematicVideoFocusMode.weak.rawValue == 2)
    }

    @Test("the input: not supported, simulated aperture 0 and refused, enabling refused, no types required of a metadata output")
    func input() throws {
        let input = try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video)))
        #expect(!input.isCinematicVideoCaptureSupported && input.simulatedAperture == 0)
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDeviceInput setSimulatedAperture:] Not supported - use activeFormat.minSimulatedAperture")) {
            try input.setSimulatedAperture(2.8)
        }
        #expect(input.simulatedAperture == 0)
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDeviceInput setCinematicVideoCaptureEnabled:] Not supported - use isCinematicVideoCaptureSupported")) {
            try input.setCinematicVideoCaptureEnabled(true)
        }
        #expect(AVCaptureMetadataOutput().requiredMetadataObjectTypesForCinematicVideoCapture.isEmpty)
    }

    @Test("metadata objects: a face's objectID is its faceID, a body's its bodyID; codes have none; no group, no Cinematic focus")
    func metadataObjects() {
        let face = AVMetadataFaceObject(faceID: 7, roll: nil, yaw: nil, time: .zero, duration: .zero, bounds: .zero)
        let body = AVMetadataHumanBodyObject(type: .humanBody, bodyID: 3, time: .zero, duration: .zero, bounds: .zero)
        let salient = AVMetadataSalientObject(objectID: 5, time: .zero, duration: .zero, bounds: .zero)
        let plain = AVMetadataObject(type: .qr, time: .zero, duration: .zero, bounds: .zero)
        #expect(face.objectID == 7 && body.objectID == 3 && salient.objectID == 5 && plain.objectID == -1)
        for object in [face, body, salient, plain] {
            #expect(object.groupID == -1 && object.cinematicVideoFocusMode == .none && !object.isFixedFocus)
        }
    }

    @Test func focusCallEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.setCinematicVideoTrackingFocus(at: CGPoint(x: 0.5, y: 0.5), focusMode: .strong)
        }
        #expect(ExceptionExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setCinematicVideoTrackingFocusAtPoint:focusMode:] Not supported - use activeFormat.isCinematicVideoCaptureSupported'"))
    }

    @Test func simulatedApertureEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let input = try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)
            input.simulatedAperture = 4
        }
        #expect(ExceptionExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCaptureDeviceInput setSimulatedAperture:] Not supported - use activeFormat.minSimulatedAperture'"))
    }
}
