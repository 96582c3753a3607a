import Foundation
import Testing
@testable import OpenCapture

@Suite("AVCaptureDevice")
struct DeviceTests {
    @Test("the simulated cameras are the default devices")
    func defaults() throws {
        let back = try #require(AVCaptureDevice.default(for: .video))
        #expect(back.position == .back)
        #expect(back.deviceType == .builtInWideAngleCamera)
        #expect(back.localizedName == "Back Camera")
        #expect(back.isConnected)
        #expect(back.hasMediaType(.video))
        #expect(!back.hasMediaType(.audio))
        let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        #expect(front.position == .front)
        #expect(AVCaptureDevice.default(.builtInUltraWideCamera, for: .video, position: .back)?.deviceType == .builtInUltraWideCamera)
        #expect(AVCaptureDevice.default(.builtInTelephotoCamera, for: nil, position: .unspecified) != nil)
        #expect(AVCaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front) == nil)
        // The simulated microphone is the default audio device where ALSA's default PCM
        // does not open (no sound card, as on this test host); else that PCM is.
        let systemDefault = AVCaptureDevice(uniqueID: "alsa:default")
        #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == (systemDefault == nil ? "sim:microphone" : "alsa:default"))
    }

    @Test("DiscoverySession orders by device type, then position")
    func discoveryOrder() {
        let session = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInTelephotoCamera, .builtInWideAngleCamera], mediaType: .video, position: .unspecified)
        #expect(session.devices.map(\.uniqueID) == ["sim:back-tele", "sim:back-wide", "sim:front-wide"])
        let fronts = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front)
        #expect(fronts.devices.map(\.position) == [.front])
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [], mediaType: .video, position: .unspecified).devices.isEmpty)
    }

    @Test("init?(uniqueID:) finds the same device, or nil")
    func byUniqueID() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device == AVCaptureDevice.default(for: .video))
        #expect(device.formats.first === AVCaptureDevice.default(for: .video)!.formats.first)
        #expect(AVCaptureDevice(uniqueID: "no-such-camera") == nil)
    }

    @Test("formats are realistic: 640x480 to 4K, a 12 MP photo size, binned 240 fps")
    func formatList() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let sizes = Set(device.formats.map { "\($0.formatDescription.dimensions.width)x\($0.formatDescription.dimensions.height)" })
        for size in ["640x480", "1280x720", "1920x1080", "3840x2160", "4032x3024"] { #expect(sizes.contains(size)) }
        let fastest = try #require(device.formats.max { $0.videoSupportedFrameRateRanges[0].maxFrameRate < $1.videoSupportedFrameRateRanges[0].maxFrameRate })
        #expect(fastest.videoSupportedFrameRateRanges[0].maxFrameRate == 240)
        #expect(fastest.isVideoBinned)
        for format in device.formats {
            #expect(format.minISO > 0 && format.minISO < format.maxISO)
            #expect(format.minExposureDuration < format.maxExposureDuration)
            #expect(format.videoFieldOfView > 0)
            #expect(format.videoMaxZoomFactor >= 1)
            // 8-bit formats, and the separate 10-bit ('x420') ones, as on iPhones.
            let tenBit = format.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
            #expect(tenBit || format.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            #expect(tenBit == format.supportedColorSpaces.contains(.HLG_BT2020))
            for range in format.videoSupportedFrameRateRanges {
                #expect(range.minFrameDuration == CMTime(value: 1, timescale: CMTimeScale(range.maxFrameRate)))
            }
        }
        #expect(device.formats.contains { $0.supportedColorSpaces.contains(.P3_D65) })
    }

    @Test("presets pick the format of their size")
    func presetsPickFormats() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let expected: [(AVCaptureSession.Preset, Int32, Int32)] = [
            (.photo, 4032, 3024), (.high, 1920, 1080), (.medium, 480, 360), (.low, 192, 144), (.cif352x288, 352, 288),
            (.vga640x480, 640, 480), (.hd1280x720, 1280, 720), (.hd1920x1080, 1920, 1080), (.hd4K3840x2160, 3840, 2160),
            (.iFrame960x540, 960, 540), (.iFrame1280x720, 1280, 720),
        ]
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        defer { session.inputs.forEach(session.removeInput) }
        for (preset, width, height) in expected {
            #expect(device.supportsSessionPreset(preset))
            #expect(session.canSetSessionPreset(preset))
            session.sessionPreset = preset
            #expect(device.activeFormat.formatDescription.dimensions == CMVideoDimensions(width: width, height: height), "\(preset.rawValue)")
        }
        session.sessionPreset = .high
    }

    @Test("setting activeFormat switches the preset to inputPriority and resets frame durations")
    func activeFormatSwitchesPreset() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        defer { session.inputs.forEach(session.removeInput) }
        #expect(session.sessionPreset == .high)
        try device.lockForConfiguration()
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 20)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 20))
        let vga = try #require(device.formats.first { $0.formatDescription.dimensions.width == 640 })
        device.activeFormat = vga
        device.unlockForConfiguration()
        #expect(session.sessionPreset == .inputPriority)
        #expect(device.activeFormat === vga)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        session.sessionPreset = .high
        #expect(device.activeFormat.formatDescription.dimensions.width == 1920)
    }

    @Test("frame durations are validated, default to 1/30 and reset on a preset change")
    func frameDurations() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        defer { session.inputs.forEach(session.removeInput) }
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        #expect(device.activeVideoMaxFrameDuration == CMTime(value: 1, timescale: 30))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(throws: AVCaptureException.self) { try device.setActiveVideoMinFrameDuration(CMTime(value: 1, timescale: 1000)) }
        try device.setActiveVideoMaxFrameDuration(CMTime(value: 1, timescale: 10))
        try device.setActiveVideoMinFrameDuration(CMTime(value: 1, timescale: 15))
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 15))
        #expect(device.activeVideoMaxFrameDuration == CMTime(value: 1, timescale: 10))
        try device.setActiveVideoMinFrameDuration(.invalid)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        try device.setActiveVideoMinFrameDuration(CMTime(value: 1, timescale: 15))
        session.sessionPreset = .vga640x480
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
    }

    @Test("the checked setters throw Apple's exception without the lock")
    func lockRequired() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(!device.isLockedForConfiguration)
        let error = #expect(throws: AVCaptureException.self) { try device.setActiveFormat(device.formats[0]) }
        #expect(error?.name == .generic)
        #expect(error?.reason.contains("lockForConfiguration") == true)
        try device.lockForConfiguration()
        try device.lockForConfiguration()
        device.unlockForConfiguration()
        #expect(device.isLockedForConfiguration)
        device.unlockForConfiguration()
        #expect(!device.isLockedForConfiguration)
    }

    @Test("authorization: video and audio are authorized, requestAccess answers true")
    func authorization() async {
        #expect(AVCaptureDevice.authorizationStatus(for: .video) == .authorized)
        #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .authorized)
        #expect(await AVCaptureDevice.requestAccess(for: .video))
        #expect(AVAuthorizationStatus.notDetermined.rawValue == 0 && AVAuthorizationStatus.authorized.rawValue == 3)
    }

    @Test("enums keep Apple's raw values")
    func rawValues() {
        #expect(AVCaptureDevice.Position.back.rawValue == 1 && AVCaptureDevice.Position.front.rawValue == 2)
        #expect(AVCaptureVideoOrientation.portrait.rawValue == 1 && AVCaptureVideoOrientation.landscapeLeft.rawValue == 4)
        #expect(AVCaptureOutput.DataDroppedReason.outOfBuffers.rawValue == 2)
        #expect(AVMediaType.video.rawValue == "vide")
        #expect(AVCaptureSession.Preset.high.rawValue == "AVCaptureSessionPresetHigh")
        #expect(AVError.Code.deviceWasDisconnected.rawValue == -11808)
        #expect(kCVPixelFormatType_420YpCbCr8PlanarFullRange == 0x6634_3230)
    }
}
