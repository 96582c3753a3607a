import Foundation
import Testing

@testable import OpenCapture

/// Device types, preferred cameras and the deprecated device flash, as iOS 18 has them.
@Suite("Device types, preferred cameras and the device flash", .serialized)
struct DeviceTypeTests {
    @Test("every device type has Apple's constant name; types no Linux device has find nothing; the microphone is the simulated one")
    func deviceTypes() {
        let names: [(AVCaptureDevice.DeviceType, String)] = [
            (.builtInWideAngleCamera, "BuiltInWideAngleCamera"), (.builtInUltraWideCamera, "BuiltInUltraWideCamera"),
            (.builtInTelephotoCamera, "BuiltInTelephotoCamera"), (.builtInDualCamera, "BuiltInDualCamera"),
            (.builtInDualWideCamera, "BuiltInDualWideCamera"), (.builtInTripleCamera, "BuiltInTripleCamera"),
            (.builtInTrueDepthCamera, "BuiltInTrueDepthCamera"), (.builtInLiDARDepthCamera, "BuiltInLiDARDepthCamera"),
            (.continuityCamera, "ContinuityCamera"), (.external, "External"), (.microphone, "Microphone"),
            (.deskViewCamera, "DeskViewCamera"),
        ]
        for (type, name) in names { #expect(type.rawValue == "AVCaptureDeviceType" + name) }
        for type in [AVCaptureDevice.DeviceType.builtInDualCamera, .builtInTrueDepthCamera, .builtInLiDARDepthCamera,
                     .continuityCamera, .deskViewCamera] {
            #expect(AVCaptureDevice.default(type, for: nil, position: .unspecified) == nil, "\(type.rawValue)")
        }
        #expect(AVCaptureDevice.default(.microphone, for: nil, position: .unspecified)?.uniqueID == "sim:microphone")
    }

    @Test("userPreferredCamera keeps a history, ignores nil and always names a present camera; systemPreferredCamera follows it")
    func preferredCameras() throws {
        let front = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        let triple = try #require(AVCaptureDevice(uniqueID: "sim:back-triple"))
        #expect(AVCaptureDevice.userPreferredCamera != nil && AVCaptureDevice.systemPreferredCamera != nil)
        AVCaptureDevice.userPreferredCamera = front
        #expect(AVCaptureDevice.userPreferredCamera == front && AVCaptureDevice.systemPreferredCamera == front)
        AVCaptureDevice.userPreferredCamera = nil
        #expect(AVCaptureDevice.userPreferredCamera == front, "setting nil has no effect")
        AVCaptureDevice.userPreferredCamera = triple
        #expect(AVCaptureDevice.systemPreferredCamera == triple)
        AVCaptureDevice.userPreferredCamera = AVCaptureDevice.default(for: .video)
        #expect(AVCaptureDevice.systemPreferredCamera?.uniqueID == "sim:back-wide")
    }

    @Test("the deprecated device flash: .off everywhere, .on and .auto where there is a flash")
    func deviceFlash() throws {
        let back: any DeprecatedDeviceFlash = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let front: any DeprecatedDeviceFlash = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        #expect(back.isFlashModeSupported(.on) && back.isFlashModeSupported(.auto) && back.isFlashModeSupported(.off))
        #expect(front.isFlashModeSupported(.off) && !front.isFlashModeSupported(.on))
        #expect(back.flashMode == .off && !back.isFlashActive)
        let device = back as! AVCaptureDevice
        try device.lockForConfiguration()
        back.flashMode = .on
        #expect(back.flashMode == .on && back.isFlashActive)
        back.flashMode = .off
        device.unlockForConfiguration()
    }
}
