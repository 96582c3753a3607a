import CaptureCore
import Foundation
import Testing
@testable import OpenCapture
@testable import V4L2Camera

/// How device capabilities become formats, presets and errors (no device needed).
@Suite("V4L2 device profile")
struct V4L2ProfileTests {
    /// vivid's webcam sizes; size i offers the slowest 12 − 2i of vivid's rates, so the
    /// fastest rates are 60, 40, 25, 12.5, 5 and 2 fps.
    static let vividLike: [V4L2Mode] = {
        let sizes = [(320, 180), (640, 360), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
        let slowestFirst: [V4L2Mode.Fraction] = [
            .init(1, 1), .init(1, 2), .init(1, 4), .init(1, 5), .init(1, 10), .init(2, 25), .init(1, 15), .init(1, 25),
            .init(1, 30), .init(1, 40), .init(1, 50), .init(1, 60),
        ]
        var modes: [V4L2Mode] = []
        for code in [V4L2PixelCode.yuyv, .nv12] {
            for (index, size) in sizes.enumerated() {
                let intervals = Array(slowestFirst.prefix(12 - 2 * index))
                modes.append(V4L2Mode(code: code, width: size.0, height: size.1, intervals: .discrete(intervals)))
            }
        }
        return modes
    }()

    @Test func discreteIntervalsBecomeFixedRangesFastestFirst() {
        let ranges = Self.vividLike[1].frameRateRanges
        #expect(ranges.first == 40...40)
        #expect(ranges.last == 1...1)
        #expect(ranges.allSatisfy { $0.lowerBound == $0.upperBound })
        let stepwise = V4L2Mode(code: .yuyv, width: 640, height: 480, intervals: .range(min: .init(1, 30), max: .init(1, 5), step: .init(1, 30)))
        #expect(stepwise.frameRateRanges == [5...30])
    }

    /// A format's photo sizes: its own, then every larger frame size of the device holding
    /// it (once each, whatever the FourCC), smallest first, as `supportedMaxPhotoDimensions`.
    @Test func photoSizesAreTheFormatsOwnThenTheDevicesLargerFrameSizes() {
        let descriptor = V4L2DeviceProfile.descriptor(
            capability: V4L2Capability(driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", deviceCaps: 0), modes: Self.vividLike,
            controls: [], current: nil, path: "/dev/null")
        let format = AVCaptureDevice.Format(spec: descriptor.formats[1], index: 1)  // YUYV 640x360
        #expect(format.supportedMaxPhotoDimensions.map { "\($0.width)x\($0.height)" } == ["640x360", "640x480", "1280x720", "1920x1080", "3840x2160"])
        let largest = AVCaptureDevice.Format(spec: descriptor.formats[11], index: 11)  // NV12 3840x2160
        #expect(largest.supportedMaxPhotoDimensions.map { "\($0.width)x\($0.height)" } == ["3840x2160"])
        // 640x480 holds no 16:9 size wider than itself but 1280x720 and up.
        #expect(V4L2DeviceProfile.largerPhotoSizes(than: Self.vividLike[2], in: Self.vividLike).map(\.width) == [1280, 1920, 3840])
    }

    @Test func presetsPickExactSizesAndTheCheapestFormat() {
        let presets = V4L2DeviceProfile.presetFormats(Self.vividLike)
        let mode = { (preset: String) in Self.vividLike[presets[preset]!] }
        #expect(mode("AVCaptureSessionPreset1280x720").width == 1280)
        #expect(mode("AVCaptureSessionPreset1280x720").code == .nv12)  // no conversion needed
        #expect(mode("AVCaptureSessionPreset640x480").height == 480)
        #expect(presets["AVCaptureSessionPreset352x288"] == nil)
        // High: the largest size that still reaches 25 fps (1280x720 tops out at 12.5).
        #expect(mode("AVCaptureSessionPresetHigh").height == 480)
        #expect(mode("AVCaptureSessionPresetPhoto").width == 3840)
        #expect(mode("AVCaptureSessionPresetLow").width == 320)
        #expect(mode("AVCaptureSessionPresetMedium").width == 640)
    }

    @Test func descriptorIsAnExternalCameraWithDeviceSubtypes() {
        let capability = V4L2Capability(driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", deviceCaps: 0x0400_0001)
        let descriptor = V4L2DeviceProfile.descriptor(
            capability: capability, modes: Self.vividLike, controls: [], current: (V4L2PixelCode.yuyv.rawValue, 640, 360), path: "/dev/video0")
        #expect(descriptor.uniqueID == "v4l2:platform:vivid-000")
        #expect(descriptor.deviceType == AVCaptureDevice.DeviceType.external.rawValue)
        #expect(descriptor.position == AVCaptureDevice.Position.unspecified.rawValue)
        #expect(descriptor.formats[descriptor.defaultFormatIndex].width == 640)
        #expect(fourCCString(descriptor.formats[0].mediaSubType) == "yuvs")
        #expect(fourCCString(descriptor.formats[6].mediaSubType) == "420v")
        // No exposure controls: exposure modes are unsupported, as Apple reports them.
        #expect(!descriptor.supportsExposureControl)
    }

    @Test func errnoBecomesTheRightError() {
        #expect(V4L2Camera.backendError(V4L2Failure("open", EBUSY)) == .deviceInUse)
        #expect(V4L2Camera.backendError(V4L2Failure("VIDIOC_DQBUF", ENODEV)) == .deviceWasDisconnected)
        guard case .notAuthorized(let message) = V4L2Camera.backendError(V4L2Failure("open /dev/video0", EACCES)) else {
            Issue.record("EACCES must be an authorization error")
            return
        }
        #expect(message.contains("'video' group"))
        guard case .streamFailed = V4L2Camera.backendError(V4L2Failure("VIDIOC_STREAMON", EIO)) else {
            Issue.record("EIO must be a stream failure")
            return
        }
    }

    @Test func controlNamesFollowV4L2Ctl() {
        #expect(AVCaptureDevice.LinuxControl.displayName("Gain, Automatic") == "gain_automatic")
        #expect(AVCaptureDevice.LinuxControl.displayName("Power Line Frequency") == "power_line_frequency")
        #expect(AVCaptureDevice.LinuxControl.displayName("Inject V4L2_BUF_FLAG_ERROR") == "inject_v4l2_buf_flag_error")
    }

    @Test func simulatedCamerasHaveNoLinuxControls() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.linuxControls.isEmpty)
        #expect(throws: AVCaptureDevice.LinuxControlError.unknownControl("brightness")) { try device.linuxControlValue("brightness") }
    }
}
