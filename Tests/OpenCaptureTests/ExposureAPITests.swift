import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

@Suite("Exposure API", .serialized)
struct ExposureAPITests {
    @Test("defaults and ranges, as on an iPhone")
    func defaults() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.exposureMode == .continuousAutoExposure)
        for mode in [AVCaptureDevice.ExposureMode.locked, .autoExpose, .continuousAutoExposure, .custom] {
            #expect(device.isExposureModeSupported(mode))
        }
        #expect(device.exposurePointOfInterest == CGPoint(x: 0.5, y: 0.5))
        #expect(device.isExposurePointOfInterestSupported)
        #expect(device.exposureTargetBias == 0 && device.minExposureTargetBias == -8 && device.maxExposureTargetBias == 8)
        #expect(device.activeMaxExposureDuration == device.activeFormat.maxExposureDuration)
        #expect(!AVCaptureDevice.currentExposureDuration.isValid)
        #expect(AVCaptureDevice.currentISO == .greatestFiniteMagnitude)
        #expect(AVCaptureDevice.ExposureMode.custom.rawValue == 3)
    }

    @Test("custom exposure: the handler gets the first frame exposed with it, and the device reports it")
    func customExposure() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(5)
        let handlerTime = Mutex<CMTime?>(nil)
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: 200) { time in handlerTime.withLock { $0 = time } }
        rig.device.unlockForConfiguration()
        #expect(rig.device.exposureMode == .custom)
        eventually("the handler was called", within: .seconds(10)) { handlerTime.withLock { $0 } != nil }
        let frames = try rig.collector.waitForMoreFrames(3)
        rig.stop()
        let time = try #require(handlerTime.withLock { $0 })
        let first = try #require(frames.first { $0.time == time })
        #expect(abs((first.metadata?.exposureDuration ?? 0) - 0.01) < 1e-6)
        #expect(first.metadata?.iso == 200)
        #expect(frames.filter { $0.time < time }.allSatisfy { $0.metadata?.iso != 200 || abs(($0.metadata?.exposureDuration ?? 0) - 0.01) > 1e-6 })
        #expect(abs(rig.device.exposureDuration.seconds - 0.01) < 1e-6 && rig.device.iso == 200)
        try rig.device.lockForConfiguration()
        rig.device.exposureMode = .continuousAutoExposure
        rig.device.unlockForConfiguration()
    }

    @Test("a custom exposure longer than the frame duration lengthens the frames")
    func longExposureLengthensFrames() async throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        try rig.device.lockForConfiguration()
        let time = await rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 10), iso: AVCaptureDevice.currentISO)
        rig.device.unlockForConfiguration()
        let frames = try rig.collector.waitForMoreFrames(5)
        rig.stop()
        let after = frames.filter { $0.time >= time }
        #expect(after.count >= 4)
        for (a, b) in zip(after, after.dropFirst()) { #expect(abs((b.time - a.time).seconds - 0.1) < 1e-6) }
        try rig.device.lockForConfiguration()
        rig.device.exposureMode = .continuousAutoExposure
        rig.device.unlockForConfiguration()
    }

    @Test("checked calls throw Apple's exceptions for bad values")
    func checkedErrors() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let noLock = #expect(throws: AVCaptureException.self) { try device.setExposureModeCustomChecked(duration: CMTime(value: 1, timescale: 100), iso: 100) }
        #expect(noLock?.name == .generic)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let tooLong = #expect(throws: AVCaptureException.self) { try device.setExposureModeCustomChecked(duration: CMTime(value: 10, timescale: 1), iso: 100) }
        #expect(tooLong?.name == .range)
        #expect(throws: AVCaptureException.self) { try device.setExposureModeCustomChecked(duration: AVCaptureDevice.currentExposureDuration, iso: 10) }
        #expect(throws: AVCaptureException.self) { try device.setExposureModeCustomChecked(duration: AVCaptureDevice.currentExposureDuration, iso: 100_000) }
        #expect(throws: AVCaptureException.self) { try device.setExposureTargetBiasChecked(9) }
        #expect(throws: AVCaptureException.self) { try device.setActiveMaxExposureDuration(CMTime(value: 5, timescale: 1)) }
        try device.setExposureTargetBiasChecked(1.5)
        #expect(device.exposureTargetBias == 1.5)
        try device.setExposureTargetBiasChecked(AVCaptureDevice.currentExposureTargetBias)
        #expect(device.exposureTargetBias == 1.5)
        try device.setExposureTargetBiasChecked(0)
        try device.setExposurePointOfInterest(CGPoint(x: 0.2, y: 0.3))
        #expect(device.exposurePointOfInterest == CGPoint(x: 0.2, y: 0.3))
        try device.setExposurePointOfInterest(CGPoint(x: 0.5, y: 0.5))
    }

    @Test("activeMaxExposureDuration resets when the format changes")
    func maxExposureResets() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide"))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setActiveMaxExposureDuration(CMTime(value: 1, timescale: 60))
        #expect(device.activeMaxExposureDuration == CMTime(value: 1, timescale: 60))
        try device.setActiveFormat(device.formats[0])
        #expect(device.activeMaxExposureDuration == device.formats[0].maxExposureDuration)
        try device.setActiveFormat(device.formats[device.descriptor.defaultFormatIndex])
    }
}

@Suite("Exposure exceptions end the process")
struct ExposureExitTests {
    @Test func customWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: 100)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSGenericException'"))
    }

    @Test func isoOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: 1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSRangeException'"))
    }

    @Test func biasOutOfRange() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setExposureTargetBias(20)
        }
    }

    @Test func modeWithoutLock() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            AVCaptureDevice.default(for: .video)!.exposureMode = .locked
        }
    }

    @Test func maxExposureOutOfRange() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.activeMaxExposureDuration = CMTime(value: 100, timescale: 1)
        }
    }
}
