import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

@Suite("White balance API", .serialized)
struct WhiteBalanceAPITests {
    typealias Gains = AVCaptureDevice.WhiteBalanceGains

    @Test("defaults and support, as on an iPhone")
    func defaults() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.whiteBalanceMode == .continuousAutoWhiteBalance)
        for mode in [AVCaptureDevice.WhiteBalanceMode.locked, .autoWhiteBalance, .continuousAutoWhiteBalance] {
            #expect(device.isWhiteBalanceModeSupported(mode))
        }
        #expect(device.maxWhiteBalanceGain == 4)
        #expect(device.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
        #expect(AVCaptureDevice.currentWhiteBalanceGains == Gains(redGain: 0, greenGain: 0, blueGain: 0))
        #expect(AVCaptureDevice.WhiteBalanceMode.locked.rawValue == 0 && AVCaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance.rawValue == 2)
        let gains = device.deviceWhiteBalanceGains
        #expect(min(gains.redGain, gains.greenGain, gains.blueGain) >= 1 && max(gains.redGain, gains.greenGain, gains.blueGain) <= 4)
    }

    @Test("conversions round-trip between gains, chromaticity and temperature/tint")
    func conversions() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        for temperature: Float in [2850, 4000, 5000, 6500, 7500] {
            let gains = device.deviceWhiteBalanceGains(for: .init(temperature: temperature, tint: 0))
            #expect(min(gains.redGain, gains.greenGain, gains.blueGain) > 0.999)
            #expect(max(gains.redGain, gains.greenGain, gains.blueGain) < 4)
            let back = device.temperatureAndTintValues(for: gains)
            #expect(abs(back.temperature - temperature) / temperature < 0.002, "\(temperature) K came back as \(back.temperature)")
            #expect(abs(back.tint) < 0.5)
        }
        let tungsten = device.deviceWhiteBalanceGains(for: .init(temperature: 2850, tint: 0))
        let daylight = device.deviceWhiteBalanceGains(for: .init(temperature: 6500, tint: 0))
        #expect(tungsten.blueGain / tungsten.redGain > daylight.blueGain / daylight.redGain, "warm light needs more blue")
        let d65 = AVCaptureDevice.WhiteBalanceChromaticityValues(x: 0.31272, y: 0.32903)
        let xy = device.chromaticityValues(for: device.deviceWhiteBalanceGains(for: d65))
        #expect(abs(xy.x - d65.x) < 1e-4 && abs(xy.y - d65.y) < 1e-4)
        let green = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains(for: .init(temperature: 5000, tint: 30)))
        #expect(abs(green.tint - 30) < 0.5)
    }

    @Test("a camera without colour calibration converts as a linear-sRGB camera: gains of 1 are D65, warmer whites need more blue")
    func uncalibratedConversions() throws {
        let url = try AssetReaderFixture.video("mp4", frames: 5, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let deck = try AVCaptureDevice.fileDeck(url: url)
        #expect(deck.maxWhiteBalanceGain == 1)
        let unity = Gains(redGain: 1, greenGain: 1, blueGain: 1)
        let white = try deck.chromaticityValuesChecked(for: unity)
        #expect(abs(white.x - 0.3127) < 1e-3 && abs(white.y - 0.3290) < 1e-3)
        let values = try deck.temperatureAndTintValuesChecked(for: unity)
        // D65 lies a little off the Planckian locus, hence a small tint; it maps back to gains of 1.
        #expect(abs(values.temperature - 6504) < 30 && abs(values.tint) < 15, "\(values.temperature) K, tint \(values.tint)")
        let unityAgain = deck.deviceWhiteBalanceGains(for: values)
        #expect(abs(unityAgain.redGain - 1) < 1e-3 && abs(unityAgain.greenGain - 1) < 1e-3 && abs(unityAgain.blueGain - 1) < 1e-3)
        let back = try deck.deviceWhiteBalanceGainsChecked(for: white)
        #expect(abs(back.redGain - 1) < 1e-3 && abs(back.greenGain - 1) < 1e-3 && abs(back.blueGain - 1) < 1e-3)
        // Tungsten light is red-heavy: its neutral needs the blue channel raised.
        let tungsten = deck.deviceWhiteBalanceGains(for: .init(temperature: 3000, tint: 0))
        #expect(tungsten.blueGain > 1.5 && tungsten.redGain == 1)
        // The range rules still hold: the only gain is 1.
        let high = #expect(throws: AVCaptureException.self) { try deck.chromaticityValuesChecked(for: Gains(redGain: 1.5, greenGain: 1, blueGain: 1)) }
        #expect(high?.name == .range)
    }

    @Test("checked calls throw Apple's exceptions for bad values")
    func checkedErrors() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(throws: AVCaptureException.self) { try device.setWhiteBalanceModeLockedChecked(with: Gains(redGain: 1, greenGain: 1, blueGain: 1)) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let low = #expect(throws: AVCaptureException.self) { try device.setWhiteBalanceModeLockedChecked(with: Gains(redGain: 0.5, greenGain: 1, blueGain: 1)) }
        #expect(low?.name == .range)
        #expect(throws: AVCaptureException.self) { try device.setWhiteBalanceModeLockedChecked(with: Gains(redGain: 1, greenGain: 1, blueGain: 4.5)) }
        let sentinel = #expect(throws: AVCaptureException.self) { try device.chromaticityValuesChecked(for: AVCaptureDevice.currentWhiteBalanceGains) }
        #expect(sentinel?.name == .range)
        #expect(throws: AVCaptureException.self) { try device.temperatureAndTintValuesChecked(for: Gains(redGain: 9, greenGain: 1, blueGain: 1)) }
        #expect(throws: AVCaptureException.self) { try device.deviceWhiteBalanceGainsChecked(for: .init(x: 1.2, y: 0.3)) }
        #expect(throws: AVCaptureException.self) { try device.deviceWhiteBalanceGainsChecked(for: .init(x: 0.3, y: -0.1)) }
        try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
    }

    @Test("locking normalises to the smallest channel and the handler gets the first frame carrying the gains")
    func lockWithGains() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(5)
        let handlerTime = Mutex<CMTime?>(nil)
        try rig.device.lockForConfiguration()
        rig.device.setWhiteBalanceModeLocked(with: Gains(redGain: 2, greenGain: 2, blueGain: 4)) { time in
            handlerTime.withLock { $0 = time }
        }
        rig.device.unlockForConfiguration()
        #expect(rig.device.whiteBalanceMode == .locked)
        eventually("the handler was called", within: .seconds(10)) { handlerTime.withLock { $0 } != nil }
        try rig.collector.waitForMoreFrames(3)
        let frames = rig.collector.frames
        rig.stop()
        let time = try #require(handlerTime.withLock { $0 })
        let first = try #require(frames.first { abs(($0.metadata?.whiteBalanceGains.blue ?? 0) - 2) < 1e-6 })
        #expect(first.time == time, "the handler's time is the first frame with the gains")
        let gains = try #require(first.metadata?.whiteBalanceGains)
        #expect(gains.red == 1 && gains.green == 1 && gains.blue == 2)
        #expect(frames.filter { $0.time < time }.allSatisfy { ($0.metadata?.whiteBalanceGains.blue ?? 0) != 2 })
        #expect(rig.device.deviceWhiteBalanceGains == Gains(redGain: 1, greenGain: 1, blueGain: 2))
        try rig.device.lockForConfiguration()
        rig.device.whiteBalanceMode = .continuousAutoWhiteBalance
        rig.device.unlockForConfiguration()
    }

    @Test("handlers run in order; the async form returns the frame time")
    func handlerOrder() async throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        let order = Mutex<[Int]>([])
        try rig.device.lockForConfiguration()
        rig.device.setWhiteBalanceModeLocked(with: Gains(redGain: 1.5, greenGain: 1, blueGain: 1.5)) { _ in order.withLock { $0.append(1) } }
        rig.device.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains) { _ in order.withLock { $0.append(2) } }
        let time = await rig.device.setWhiteBalanceModeLocked(with: Gains(redGain: 1.2, greenGain: 1, blueGain: 1.8))
        rig.device.whiteBalanceMode = .continuousAutoWhiteBalance
        rig.device.unlockForConfiguration()
        rig.stop()
        #expect(order.withLock { $0 } == [1, 2])
        #expect(time.isNumeric)
    }

    @Test("auto white balance settles, then reports locked")
    func autoOnce() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.device.simulation?.sceneIlluminant = .init(temperature: 3200, tint: 0)
        defer { rig.device.simulation?.sceneIlluminant = .init(temperature: 6500, tint: 0) }
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        try rig.device.lockForConfiguration()
        rig.device.whiteBalanceMode = .autoWhiteBalance
        rig.device.unlockForConfiguration()
        eventually("white balance settled and locked", within: .seconds(15)) { rig.device.whiteBalanceMode == .locked }
        #expect(!rig.device.isAdjustingWhiteBalance)
        let settled = rig.device.temperatureAndTintValues(for: rig.device.deviceWhiteBalanceGains)
        rig.stop()
        #expect(abs(settled.temperature - 3200) / 3200 < 0.05, "estimated \(settled.temperature) K")
        try rig.device.lockForConfiguration()
        rig.device.whiteBalanceMode = .continuousAutoWhiteBalance
        rig.device.unlockForConfiguration()
    }
}

@Suite("Scripted scene light", .serialized)
struct SceneIlluminantScriptTests {
    @Test("a light change scheduled at frame 20 reaches frame 20 exactly, and continuous AWB follows it")
    func scheduledChange() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.device.simulation?.sceneIlluminant = .init(temperature: 6500, tint: 0)
        rig.device.simulation?.scheduleSceneIlluminant(.init(temperature: 2850, tint: 0), atFrame: 20)
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(60)
        rig.stop()
        rig.device.simulation?.sceneIlluminant = .init(temperature: 6500, tint: 0)
        let temperatures = frames.prefix(60).map { $0.metadata?.sceneTemperature ?? 0 }
        #expect(temperatures[19] == 6500 && temperatures[20] == 2850)
        let last = try #require(frames.prefix(60).last?.metadata?.whiteBalanceGains)
        let estimate = rig.device.temperatureAndTintValues(for: .init(redGain: last.red, greenGain: last.green, blueGain: last.blue))
        #expect(abs(estimate.temperature - 2850) / 2850 < 0.05, "AWB reads \(estimate.temperature) K")
    }
}
