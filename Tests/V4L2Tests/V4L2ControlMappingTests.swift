import CaptureCore
import Synchronization
import Testing
@testable import V4L2Camera

/// How API requests become V4L2 control writes, against a recording stand-in for a UVC
/// webcam (vivid has no exposure or white-balance controls; these run on any machine).
@Suite("V4L2 control mapping")
struct V4L2ControlMappingTests {
    /// Remembers values like a driver would (clamping is the applier's job) and every write.
    final class FakeWebcam: V4L2ControlAccess, @unchecked Sendable {
        let values = Mutex<[UInt32: Int64]>([
            V4L2ControlID.autoExposure: 3, V4L2ControlID.exposureTimeAbsolute: 156, V4L2ControlID.autoWhiteBalance: 1,
            V4L2ControlID.whiteBalanceTemperature: 4600,
        ])
        let writes = Mutex<[(UInt32, Int64)]>([])

        func value(of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
            guard let value = values.withLock({ $0[id] }) else { throw V4L2Failure("G_EXT_CTRLS", 22) }
            return value
        }

        func setValue(_ value: Int64, of id: UInt32, is64: Bool) throws(V4L2Failure) -> Int64 {
            values.withLock { $0[id] = value }
            writes.withLock { $0.append((id, value)) }
            return value
        }

        func written(_ id: UInt32) -> [Int64] { writes.withLock { $0.filter { $0.0 == id }.map(\.1) } }
    }

    /// A typical UVC webcam: exposure menu without AUTO, exposure 0.3 ms ... 204.7 ms,
    /// automatic white balance with a temperature control, an exposure-bias integer menu.
    static let controls: [V4L2ControlInfo] = [
        V4L2ControlInfo(id: V4L2ControlID.autoExposure, name: "Auto Exposure", type: 3, minimum: 0, maximum: 3, step: 1, defaultValue: 3, flags: 0,
                        menu: [(1, "Manual Mode"), (3, "Aperture Priority Mode")]),
        V4L2ControlInfo(id: V4L2ControlID.exposureTimeAbsolute, name: "Exposure Time, Absolute", type: 1, minimum: 3, maximum: 2047, step: 1, defaultValue: 250, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.autoWhiteBalance, name: "White Balance, Automatic", type: 2, minimum: 0, maximum: 1, step: 1, defaultValue: 1, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.whiteBalanceTemperature, name: "White Balance Temperature", type: 1, minimum: 2800, maximum: 6500, step: 10, defaultValue: 4600, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.autoExposureBias, name: "Auto Exposure, Bias", type: 9, minimum: 0, maximum: 4, step: 1, defaultValue: 2, flags: 0,
                        menu: [(0, "-2000"), (1, "-1000"), (2, "0"), (3, "1000"), (4, "2000")]),
    ]

    @Test func customExposureGoesManualInHundredMicroseconds() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        applier.enqueue(ControlRequest(id: 7, exposure: .custom(duration: 0.01, iso: nil)))
        #expect(applier.applyPending(on: webcam) == 7)
        #expect(webcam.written(V4L2ControlID.autoExposure) == [1])
        #expect(webcam.written(V4L2ControlID.exposureTimeAbsolute) == [100])
        var metadata = FrameMetadata()
        applier.describe(into: &metadata)
        #expect(metadata.exposureDuration == 0.01)
        #expect(metadata.exposureState == .custom)
        // Out of the device's range: clamped to what it can do (1 s → 204.7 ms).
        applier.enqueue(ControlRequest(id: 8, exposure: .custom(duration: 1, iso: nil)))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.exposureTimeAbsolute).last == 2047)
    }

    @Test func continuousUsesAperturePriorityWhenTheMenuHasNoAuto() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        applier.enqueue(ControlRequest(id: 1, exposure: .continuous))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.autoExposure) == [3])
    }

    @Test func autoExposeSettlesThenLocksWhatTheDriverFound() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        applier.enqueue(ControlRequest(id: 1, exposure: .autoOnce))
        for _ in 0..<V4L2ControlApplier.settleFrames { applier.applyPending(on: webcam) }
        #expect(webcam.written(V4L2ControlID.autoExposure) == [3, 1])
        #expect(webcam.written(V4L2ControlID.exposureTimeAbsolute) == [156])
        var metadata = FrameMetadata()
        applier.describe(into: &metadata)
        #expect(metadata.exposureState == .locked)
        #expect(metadata.exposureDuration == 0.0156)
    }

    @Test func biasPicksTheNearestMenuEntry() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        applier.enqueue(ControlRequest(id: 1, exposureTargetBias: 0.8))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.autoExposureBias) == [3])
    }

    @Test func lockedGainsBecomeATemperature() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        let gains = V4L2WhiteBalanceModel.gains(temperature: 3200)
        #expect(gains.blue > gains.red)  // warm light needs more blue
        applier.enqueue(ControlRequest(id: 1, whiteBalance: .lock(red: gains.red, green: gains.green, blue: gains.blue)))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.autoWhiteBalance) == [0])
        let kelvin = webcam.written(V4L2ControlID.whiteBalanceTemperature).first ?? 0
        #expect(abs(kelvin - 3200) <= 5, "wrote \(kelvin) K")
        applier.enqueue(ControlRequest(id: 2, whiteBalance: .continuous))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.autoWhiteBalance) == [0, 1])
    }

    @Test func lockCurrentReadsTheDriversTemperature() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.controls)
        applier.enqueue(ControlRequest(id: 1, whiteBalance: .lockCurrent))
        applier.applyPending(on: webcam)
        var metadata = FrameMetadata()
        applier.describe(into: &metadata)
        let expected = V4L2WhiteBalanceModel.gains(temperature: 4600)
        #expect(metadata.whiteBalanceState == .locked)
        #expect(abs(metadata.whiteBalanceGains.blue - expected.blue) < 1e-4)
    }

    @Test func webcamControlsMakeExposureAndWhiteBalanceSupported() {
        let capability = V4L2Capability(driver: "uvcvideo", card: "HD Webcam", busInfo: "usb-0000:00:14.0-1", deviceCaps: 0x0400_0001)
        let mode = V4L2Mode(code: .yuyv, width: 640, height: 480, intervals: .discrete([.init(1, 30)]))
        let descriptor = V4L2DeviceProfile.descriptor(capability: capability, modes: [mode], controls: Self.controls, current: nil, path: "/dev/video0")
        #expect(descriptor.supportsExposureControl)
        #expect(descriptor.colorCalibration == V4L2WhiteBalanceModel.calibration)
        #expect(descriptor.formats[0].minExposureDuration == 0.0003)
        #expect(descriptor.formats[0].maxExposureDuration == 0.2047)
        #expect(descriptor.uniqueID == "v4l2:usb-0000:00:14.0-1")
    }

    /// A webcam with autofocus, zoom in hundredths (100 = 1×) and a torch LED.
    static let lensControls: [V4L2ControlInfo] = [
        V4L2ControlInfo(id: V4L2ControlID.focusAbsolute, name: "Focus, Absolute", type: 1, minimum: 0, maximum: 250, step: 5, defaultValue: 0, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.focusAutomaticContinuous, name: "Focus, Automatic Continuous", type: 2, minimum: 0, maximum: 1, step: 1, defaultValue: 1, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.zoomAbsolute, name: "Zoom, Absolute", type: 1, minimum: 100, maximum: 500, step: 1, defaultValue: 100, flags: 0),
        V4L2ControlInfo(id: V4L2ControlID.flashLEDMode, name: "LED Mode", type: 3, minimum: 0, maximum: 2, step: 1, defaultValue: 0, flags: 0,
                        menu: [(0, "Off"), (1, "Flash"), (2, "Torch")]),
        V4L2ControlInfo(id: V4L2ControlID.flashTorchIntensity, name: "Torch Intensity", type: 1, minimum: 0, maximum: 200, step: 1, defaultValue: 100, flags: 0),
    ]

    @Test func focusModesAndLensPositions() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.lensControls)
        applier.enqueue(.lens(id: 1, focus: .lock(lensPosition: 0.2)))
        applier.applyPending(on: webcam)
        // Apple's 0 is nearest; V4L2's larger values are nearer.
        #expect(webcam.written(V4L2ControlID.focusAutomaticContinuous) == [0])
        #expect(webcam.written(V4L2ControlID.focusAbsolute) == [200])
        applier.enqueue(.lens(id: 2, focus: .continuous(FocusSearch())))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.focusAutomaticContinuous) == [0, 1])
        // No auto_focus_start button: run continuous autofocus, then lock.
        applier.enqueue(.lens(id: 3, focus: .autoOnce(FocusSearch())))
        for _ in 0..<V4L2ControlApplier.settleFrames { applier.applyPending(on: webcam) }
        #expect(webcam.written(V4L2ControlID.focusAutomaticContinuous) == [0, 1, 1, 0])
        var metadata = FrameMetadata()
        applier.describe(into: &metadata)
        #expect(metadata.focusState == .locked)
    }

    @Test func zoomFactorsAndRampsInDriverUnits() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.lensControls)
        applier.enqueue(.lens(id: 1, zoom: .set(factor: 2)))
        applier.applyPending(on: webcam, at: 0)
        #expect(webcam.written(V4L2ControlID.zoomAbsolute) == [200])
        // Ramp to 4× at 1 stop a second: 2 → 4 in one second of frame time.
        applier.enqueue(.lens(id: 2, zoom: .ramp(target: 4, rate: 1)))
        for frame in 0...30 { applier.applyPending(on: webcam, at: 10 + Double(frame) / 30) }
        let values = webcam.written(V4L2ControlID.zoomAbsolute)
        #expect(values.last == 400)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        // Halfway through (0.5 s) the factor is 2·2^0.5.
        #expect(abs(Double(values[16]) - 200 * 2.0.squareRoot()) <= 2, "\(values)")
        var metadata = FrameMetadata()
        applier.describe(into: &metadata)
        #expect(!metadata.isRampingVideoZoom && metadata.zoomFactor == 4)
    }

    @Test func torchLevelsScaleTheIntensity() {
        let webcam = FakeWebcam()
        let applier = V4L2ControlApplier(controls: Self.lensControls)
        applier.enqueue(.lens(id: 1, torch: .on(level: 0.5)))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.flashLEDMode) == [2])
        #expect(webcam.written(V4L2ControlID.flashTorchIntensity) == [100])
        applier.enqueue(.lens(id: 2, torch: .off))
        applier.applyPending(on: webcam)
        #expect(webcam.written(V4L2ControlID.flashLEDMode) == [2, 0])
    }

    @Test func lensControlsShapeTheDescriptor() {
        let capability = V4L2Capability(driver: "uvcvideo", card: "PTZ Cam", busInfo: "usb-1", deviceCaps: 0x0400_0001)
        let mode = V4L2Mode(code: .mjpeg, width: 1920, height: 1080, intervals: .discrete([.init(1, 30)]))
        let descriptor = V4L2DeviceProfile.descriptor(capability: capability, modes: [mode], controls: Self.lensControls, current: nil, path: "/dev/video0")
        #expect(descriptor.focus.hasAutoFocus)
        #expect(descriptor.formats[0].autoFocusSystem == 1)
        #expect(descriptor.formats[0].maxZoomFactor == 5)
        #expect(descriptor.hasTorch && !descriptor.supportsAutoTorch)
        let plain = V4L2DeviceProfile.descriptor(capability: capability, modes: [mode], controls: [], current: nil, path: "/dev/video0")
        #expect(!plain.focus.hasAutoFocus && plain.formats[0].autoFocusSystem == 0 && plain.formats[0].maxZoomFactor == 1 && !plain.hasTorch)
    }
}
