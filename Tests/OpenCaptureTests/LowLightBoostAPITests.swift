import Foundation
import Testing
@testable import OpenCapture

@Suite("Low-light boost API", .serialized)
struct LowLightBoostAPITests {
    @Test("supported on the back wide camera only; off by default")
    func support() throws {
        #expect(AVCaptureDevice(uniqueID: "sim:back-wide")!.isLowLightBoostSupported)
        for id in ["sim:back-ultrawide", "sim:back-tele", "sim:front-wide"] {
            #expect(!AVCaptureDevice(uniqueID: id)!.isLowLightBoostSupported)
        }
        let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        #expect(!device.automaticallyEnablesLowLightBoostWhenAvailable)
        #expect(throws: AVCaptureException.self) { try device.setAutomaticallyEnablesLowLightBoostWhenAvailable(true) }
        let front = AVCaptureDevice(uniqueID: "sim:front-wide")!
        try front.lockForConfiguration()
        defer { front.unlockForConfiguration() }
        let unsupported = #expect(throws: AVCaptureException.self) { try front.setAutomaticallyEnablesLowLightBoostWhenAvailable(true) }
        #expect(unsupported?.name == .invalidArgument)
    }

    @Test("in a dim scene boost turns on and lengthens exposure; in a bright one it turns off")
    func dimAndBright() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.device.simulation?.sceneLuminance = 1.5
        defer { rig.device.simulation?.sceneLuminance = 200 }
        try rig.device.lockForConfiguration()
        rig.device.automaticallyEnablesLowLightBoostWhenAvailable = true
        rig.device.unlockForConfiguration()
        defer {
            try? rig.device.lockForConfiguration()
            rig.device.automaticallyEnablesLowLightBoostWhenAvailable = false
            rig.device.unlockForConfiguration()
        }
        rig.session.startRunning()
        try rig.collector.waitForFrames(40)
        #expect(rig.device.isLowLightBoostEnabled)
        #expect(rig.device.exposureDuration.seconds >= 1.0 / 20)
        rig.device.simulation?.sceneLuminance = 150
        try rig.collector.waitForMoreFrames(40)
        #expect(!rig.device.isLowLightBoostEnabled)
        rig.stop()
    }
}

@Suite("Low-light boost exceptions end the process")
struct LowLightBoostExitTests {
    @Test func withoutLock() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            AVCaptureDevice.default(for: .video)!.automaticallyEnablesLowLightBoostWhenAvailable = true
        }
    }

    @Test func unsupportedCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
            try? device.lockForConfiguration()
            device.automaticallyEnablesLowLightBoostWhenAvailable = true
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSInvalidArgumentException'"))
    }
}
