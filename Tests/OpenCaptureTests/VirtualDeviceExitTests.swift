import Foundation
import Testing

@testable import OpenCapture

/// Virtual-device and deprecated flash misuse ends the process with Apple's exception.
@Suite("Virtual device and device flash exceptions end the process")
struct VirtualDeviceExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func switchingBehaviorWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice(uniqueID: "sim:back-triple")!.setPrimaryConstituentDeviceSwitchingBehavior(.locked, restrictedSwitchingBehaviorConditions: [])
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setPrimaryConstituentDeviceSwitchingBehavior:restrictedSwitchingBehaviorConditions:] May not be called without first successfully calling -lockForConfiguration:'"))
    }

    @Test func switchingBehaviorOnAPhysicalCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
            try? device.lockForConfiguration()
            device.setPrimaryConstituentDeviceSwitchingBehavior(.auto, restrictedSwitchingBehaviorConditions: [])
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setPrimaryConstituentDeviceSwitchingBehavior:restrictedSwitchingBehaviorConditions:] This device does not support constituent device switching'"))
    }

    @Test func fallbackConstituentsNotSupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-triple")!
            try? device.lockForConfiguration()
            device.fallbackPrimaryConstituentDevices = [AVCaptureDevice(uniqueID: "sim:back-wide")!]
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFallbackPrimaryConstituentDevices:]"))
    }

    @Test func deviceFlashModeOnTheFrontCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device: any DeprecatedDeviceFlash = AVCaptureDevice(uniqueID: "sim:front-wide")!
            try? (device as! AVCaptureDevice).lockForConfiguration()
            device.flashMode = .on
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFlashMode:] Unsupported flash mode 1 - use isFlashModeSupported:'"))
    }

    @Test func deviceFlashModeWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device: any DeprecatedDeviceFlash = AVCaptureDevice(uniqueID: "sim:back-wide")!
            device.flashMode = .on
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setFlashMode:] May not be called"))
    }
}

/// The deprecated device flash API, reached through a protocol so the tests compile
/// without deprecation warnings (which the build treats as errors).
protocol DeprecatedDeviceFlash: AnyObject {
    var flashMode: AVCaptureDevice.FlashMode { get set }
    var isFlashActive: Bool { get }
    func isFlashModeSupported(_ flashMode: AVCaptureDevice.FlashMode) -> Bool
}

extension AVCaptureDevice: DeprecatedDeviceFlash {}
