import Foundation
import Testing

@testable import CaptureCore
@testable import OpenCapture

/// The back wide camera's first format of `width`×`height` (non-binned unless `binned`).
private func format(_ device: AVCaptureDevice, _ width: Int32, _ height: Int32, binned: Bool = false) -> AVCaptureDevice.Format {
    device.formats.first {
        $0.formatDescription.dimensions.width == width && $0.formatDescription.dimensions.height == height && $0.isVideoBinned == binned
    }!
}

/// Puts the device's HDR, colour space and scene back as a fresh process has them.
private func restore(_ device: AVCaptureDevice) {
    try? device.lockForConfiguration()
    try? device.setAutomaticallyAdjustsVideoHDREnabled(true)
    device.core.format.videoHDREnabled = false
    device.core.format.colorSpace = 0
    device.unlockForConfiguration()
    try? device.simulation?.setScene(.chart)
}

@Suite("Video HDR and colour space API", .serialized)
struct VideoHDRColorSpaceAPITests {
    /// Like iPhones: HDR on the full-sensor 1080p, 1440p, 4K and 12 MP formats, not on binned
    /// high-frame-rate formats or the small ones; P3 on non-binned formats from 1280 wide.
    @Test func formatsAdvertiseHDRAndWideColour() {
        let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        #expect(format(device, 1920, 1080).isVideoHDRSupported)
        #expect(format(device, 3840, 2160).isVideoHDRSupported)
        #expect(!format(device, 1920, 1080, binned: true).isVideoHDRSupported)
        #expect(!format(device, 640, 480).isVideoHDRSupported)
        #expect(format(device, 1920, 1080).supportedColorSpaces == [.sRGB, .P3_D65])
        #expect(format(device, 640, 480).supportedColorSpaces == [.sRGB])
    }

    /// Defaults: automatic HDR, off until a frame says otherwise; sRGB.
    @Test func defaults() {
        let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
        #expect(device.automaticallyAdjustsVideoHDREnabled)
        #expect(!device.isVideoHDREnabled)
        #expect(device.activeColorSpace == .sRGB)
    }

    /// Manual HDR: with automatic off, on is on (the backend is asked for it and frames carry
    /// it); a new active format turns it off again, as on iOS; automatic asks for `.automatic`.
    @Test func manualHDRAndFormatReset() throws {
        let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        defer { restore(device) }
        try device.lockForConfiguration()
        try device.setActiveFormat(format(device, 1920, 1080))
        #expect(device.streamConfiguration(pixelFormat: .bgra).videoHDR == .automatic)
        try device.setAutomaticallyAdjustsVideoHDREnabled(false)
        #expect(!device.isVideoHDREnabled)
        try device.setVideoHDREnabled(true)
        #expect(device.isVideoHDREnabled)
        #expect(device.streamConfiguration(pixelFormat: .bgra).videoHDR == .on)
        try device.setActiveFormat(format(device, 3840, 2160))
        #expect(!device.isVideoHDREnabled)
        #expect(device.streamConfiguration(pixelFormat: .bgra).videoHDR == .off)
        // A format without HDR never asks for it, even in automatic mode.
        try device.setAutomaticallyAdjustsVideoHDREnabled(true)
        try device.setActiveFormat(format(device, 640, 480))
        #expect(device.streamConfiguration(pixelFormat: .bgra).videoHDR == .off)
        device.unlockForConfiguration()
    }

    /// Through a session: manual HDR reaches the frames; automatic HDR turns on by itself in
    /// the window scene and `isVideoHDREnabled` reports it; P3 set by hand (the session's
    /// automatic wide colour off) tags the frames P3_D65, sRGB ITU_R_709_2.
    @Test func sessionFramesCarryHDRAndColourSpace() throws {
        let rig = try TestRig(preset: .hd1920x1080, pixelFormat: kCVPixelFormatType_32BGRA)
        defer {
            rig.stop()
            restore(rig.device)
        }
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try rig.device.simulation!.setScene(.hdr)
        rig.session.startRunning()
        let first = try rig.collector.waitForFrames(20)
        #expect(rig.device.isVideoHDREnabled)
        #expect(first.last?.metadata?.isVideoHDREnabled == true)
        // Keep one buffer only: held buffers leave the pool.
        rig.collector.keptPixels = 1
        rig.collector.reset()
        try rig.collector.waitForFrames(2)
        let buffer = try #require(rig.collector.newestFrameWithPixels?.buffer)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)

        try rig.device.lockForConfiguration()
        // Leaving automatic mode keeps HDR as it is now: on.
        try rig.device.setAutomaticallyAdjustsVideoHDREnabled(false)
        #expect(rig.device.isVideoHDREnabled)
        #expect(rig.device.streamConfiguration(pixelFormat: .bgra).videoHDR == .on)
        try rig.device.setActiveColorSpace(.P3_D65)
        rig.device.unlockForConfiguration()
        #expect(rig.device.activeColorSpace == .P3_D65)
        rig.collector.reset()
        try rig.collector.waitForFrames(3)
        let tagged = try #require(rig.collector.newestFrameWithPixels?.buffer)
        #expect(CVBufferCopyAttachment(tagged, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_P3_D65)
        #expect(CVBufferCopyAttachment(tagged, kCVImageBufferTransferFunctionKey, nil) as? String == kCVImageBufferTransferFunction_sRGB)
    }

    /// The session's automatic wide colour: P3 for a photo-only session on a P3 format, sRGB
    /// as soon as a video data output joins; off, the device keeps what it was given.
    @Test func sessionConfiguresWideColourForPhotos() throws {
        let device = AVCaptureDevice(uniqueID: "sim:back-tele")!
        defer { restore(device) }
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(AVCapturePhotoOutput())
        #expect(device.activeColorSpace == .P3_D65)
        let video = AVCaptureVideoDataOutput()
        session.addOutput(video)
        #expect(device.activeColorSpace == .sRGB)
        session.removeOutput(video)
        #expect(device.activeColorSpace == .P3_D65)
        session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try device.lockForConfiguration()
        try device.setActiveColorSpace(.sRGB)
        device.unlockForConfiguration()
        session.addOutput(video)
        session.removeOutput(video)
        #expect(device.activeColorSpace == .sRGB)
    }

    /// The checked setters throw what iOS raises.
    @Test func checkedSettersThrowApplesExceptions() throws {
        let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
        defer { restore(device) }
        #expect(throws: AVCaptureException.self) { try device.setVideoHDREnabled(false) }
        #expect(throws: AVCaptureException.self) { try device.setActiveColorSpace(.sRGB) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(throws: AVCaptureException(.generic, "*** -[AVCaptureDevice setVideoHDREnabled:] May not be called while automaticallyAdjustsVideoHDREnabled is YES")) {
            try device.setVideoHDREnabled(true)
        }
        try device.setAutomaticallyAdjustsVideoHDREnabled(false)
        try device.setActiveFormat(format(device, 640, 480))
        #expect(throws: AVCaptureException(.generic, "*** -[AVCaptureDevice setVideoHDREnabled:] Not supported by the active format - use activeFormat.isVideoHDRSupported")) {
            try device.setVideoHDREnabled(true)
        }
        try device.setVideoHDREnabled(false)
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDevice setActiveColorSpace:] Not supported - use activeFormat.supportedColorSpaces")) {
            try device.setActiveColorSpace(.P3_D65)
        }
        #expect(throws: AVCaptureException.self) { try device.setActiveColorSpace(.HLG_BT2020) }
    }
}
