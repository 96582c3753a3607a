import Foundation
import Testing

@testable import CaptureCore
@testable import OpenCapture

private let x420 = kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
private let xf20 = kCVPixelFormatType_420YpCbCr10BiPlanarFullRange

/// The device's 10-bit ('x420') format of `width`×`height`.
private func tenBitFormat(_ device: AVCaptureDevice, _ width: Int32, _ height: Int32) -> AVCaptureDevice.Format? {
    device.formats.first {
        $0.formatDescription.mediaSubType.rawValue == x420 && $0.formatDescription.dimensions.width == width
            && $0.formatDescription.dimensions.height == height
    }
}

/// Back to the preset's format and sRGB, as a fresh process has them.
private func restore(_ device: AVCaptureDevice) {
    device.core.format.colorSpace = 0
    try? device.lockForConfiguration()
    if let format = device.formats.first(where: { $0.formatDescription.dimensions.width == 1280 && !$0.isVideoBinned }) {
        try? device.setActiveFormat(format)
    }
    device.unlockForConfiguration()
}

@Suite("TenBit formats and HLG through the API", .serialized)
struct TenBitFormatAPITests {
    /// The FourCCs of CVPixelBuffer.h: the two 10-bit 4:2:0 ones and a sample of the rest.
    @Test func pixelFormatConstants() {
        #expect(x420 == 0x7834_3230 && fourCCString(x420) == "x420")
        #expect(xf20 == 0x7866_3230 && fourCCString(xf20) == "xf20")
        #expect(fourCCString(kCVPixelFormatType_422YpCbCr8_yuvs) == "yuvs")
        #expect(fourCCString(kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange) == "x422")
        #expect(fourCCString(kCVPixelFormatType_444YpCbCr10BiPlanarFullRange) == "xf44")
        #expect(fourCCString(kCVPixelFormatType_64RGBAHalf) == "RGhA")
        #expect(fourCCString(kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange) == "&xv0")
        #expect(fourCCString(kCVPixelFormatType_Lossy_32BGRA) == "-BGA")
        #expect(kCVPixelFormatType_32ARGB == 0x20 && kCVPixelFormatType_24RGB == 0x18 && kCVPixelFormatType_1Monochrome == 1)
        #expect(kCVPixelFormatType_16BE555 == 0x10 && kCVPixelFormatType_8IndexedGray_WhiteIsZero == 0x28)
    }

    /// As on iPhones: separate 10-bit formats with mediaSubType 'x420', sRGB and HLG colour
    /// spaces, no EDR video HDR, never chosen by a preset.
    @Test func tenBitFormatsAreSeparateEntries() throws {
        for id in ["sim:back-wide", "sim:back-ultrawide", "sim:back-tele", "sim:front-wide"] {
            let device = try #require(AVCaptureDevice(uniqueID: id))
            let format = try #require(tenBitFormat(device, 1920, 1080), "\(id)")
            #expect(format.supportedColorSpaces == [.sRGB, .HLG_BT2020])
            #expect(!format.isVideoHDRSupported)
            #expect(device.formats.filter { $0.supportedColorSpaces.contains(.HLG_BT2020) }.allSatisfy {
                $0.formatDescription.mediaSubType.rawValue == x420
            })
        }
        let wide = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(tenBitFormat(wide, 3840, 2160) != nil)
        let session = AVCaptureSession()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: wide))
        defer { restore(wide) }
        #expect(wide.activeFormat.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
    }

    /// 'x420'/'xf20' are offered only while the active format is 10-bit; asking for them
    /// otherwise, or for any pixel format never delivered, raises.
    @Test func availabilityFollowsTheActiveFormat() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        defer { restore(device) }
        let output = AVCaptureVideoDataOutput()
        #expect(!output.availableVideoPixelFormatTypes.contains(x420))
        #expect(throws: AVCaptureException.self) { try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: x420]) }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        #expect(!output.availableVideoPixelFormatTypes.contains(x420) && !output.availableVideoPixelFormatTypes.contains(xf20))
        #expect(throws: AVCaptureException.self) { try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: xf20]) }
        try device.lockForConfiguration()
        try device.setActiveFormat(try #require(tenBitFormat(device, 1920, 1080)))
        device.unlockForConfiguration()
        #expect(Set(output.availableVideoPixelFormatTypes) == [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange, x420, xf20,
        ])
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: xf20])
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == xf20)
        for unavailable in [
            kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_32ARGB,
            kCVPixelFormatType_64RGBAHalf, kCVPixelFormatType_OneComponent10, kCVPixelFormatType_Lossless_32BGRA,
        ] {
            let error = #expect(throws: AVCaptureException.self) {
                try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: unavailable])
            }
            #expect(error?.name == .invalidArgument)
            #expect(error?.reason.contains("availableVideoPixelFormatTypes") == true)
        }
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == xf20)
    }

    /// HLG_BT2020 only with a 10-bit active format; a new 8-bit format falls back to sRGB.
    @Test func hlgNeedsATenBitFormat() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        defer { restore(device) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setActiveFormat(try #require(device.formats.first { $0.formatDescription.dimensions.width == 1920 && !$0.isVideoBinned }))
        let error = #expect(throws: AVCaptureException.self) { try device.setActiveColorSpace(.HLG_BT2020) }
        #expect(error?.name == .invalidArgument)
        try device.setActiveFormat(try #require(tenBitFormat(device, 1920, 1080)))
        try device.setActiveColorSpace(.HLG_BT2020)
        #expect(device.activeColorSpace == .HLG_BT2020)
        #expect(device.streamConfiguration(pixelFormat: .yuv420TenBitBiPlanarVideoRange).colorSpace == 2)
        try device.setActiveFormat(try #require(device.formats.first { $0.formatDescription.dimensions.width == 1920 && !$0.isVideoBinned }))
        #expect(device.activeColorSpace == .sRGB)
    }

    /// Through a session in virtual time: 'x420' frames with HLG tags, real 10-bit samples in
    /// video range, and a BGRA output beside it gets the same frames converted.
    @Test func sessionDeliversTenBitHLGFrames() throws {
        let rig = try TestRig(preset: .hd1920x1080)
        defer {
            rig.stop()
            restore(rig.device)
        }
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try rig.device.lockForConfiguration()
        try rig.device.setActiveFormat(try #require(tenBitFormat(rig.device, 1920, 1080)))
        try rig.device.setActiveColorSpace(.HLG_BT2020)
        rig.device.unlockForConfiguration()
        rig.output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: x420]
        rig.collector.keptPixels = 1
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        let buffer = try #require(rig.collector.newestFrameWithPixels?.buffer)
        // Said apart from the tags, so a failure tells which link lost the colour space (an
        // idle session once reset it to sRGB: idleSessionLeavesTheColourSpaceAlone).
        #expect(rig.device.activeColorSpace == .HLG_BT2020, "\(rig.device.activeFormat)")
        #expect(rig.device.streamConfiguration(pixelFormat: .yuv420TenBitBiPlanarVideoRange).colorSpace == 2)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == x420)
        #expect(CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) >= 2 * 1920)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_2020)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferTransferFunctionKey, nil) as? String == kCVImageBufferTransferFunction_ITU_R_2100_HLG)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_2020)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let row = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.advanced(by: 540 * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0))
            .assumingMemoryBound(to: UInt16.self)
        let values = (0..<1920).map { Int(row[$0] >> 6) }
        #expect((0..<1920).allSatisfy { row[$0] & 0x3F == 0 })
        #expect(values.allSatisfy { (64...940).contains($0) })
        #expect(Set(values.map { $0 & 3 }).count == 4, "real 10-bit values, not 8-bit ones shifted")
    }

    /// A session that is not running, but still has the device as an input with automatic
    /// wide colour on, leaves alone the colour space the app sets for the session it starts
    /// (it used to re-apply its own choice, sRGB, on every device change: the HLG test above
    /// failed in full runs whenever an earlier test's session was still alive).
    @Test func idleSessionLeavesTheColourSpaceAlone() throws {
        let idle = AVCaptureSession()
        let rig = try TestRig(preset: .hd1920x1080)
        defer {
            rig.stop()
            restore(rig.device)
        }
        idle.addInput(try AVCaptureDeviceInput(device: rig.device))
        idle.addOutput(AVCaptureVideoDataOutput())
        #expect(idle.automaticallyConfiguresCaptureDeviceForWideColor && !idle.isRunning)
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try rig.device.lockForConfiguration()
        try rig.device.setActiveFormat(try #require(tenBitFormat(rig.device, 1920, 1080)))
        try rig.device.setActiveColorSpace(.HLG_BT2020)
        rig.device.unlockForConfiguration()
        #expect(rig.device.activeColorSpace == .HLG_BT2020)
        rig.session.startRunning()
        try rig.collector.waitForFrames(1)
        #expect(rig.device.activeColorSpace == .HLG_BT2020)
        withExtendedLifetime(idle) {}
    }

    /// With a 10-bit and an 8-bit output the device renders the 10-bit format, so the 10-bit
    /// output keeps real 10-bit samples and the other gets them converted.
    @Test func mixedOutputsRenderTenBits() throws {
        let rig = try TestRig(preset: .hd1920x1080)
        defer {
            rig.stop()
            restore(rig.device)
        }
        try rig.device.lockForConfiguration()
        try rig.device.setActiveFormat(try #require(tenBitFormat(rig.device, 1920, 1080)))
        rig.device.unlockForConfiguration()
        rig.output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: xf20]
        let bgra = AVCaptureVideoDataOutput()
        bgra.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        #expect(rig.session.canAddOutput(bgra))
        rig.session.addOutput(bgra)
        #expect(AVCaptureSession.renderFormat(for: rig.session.connections, tenBitFormat: true) == .yuv420TenBitBiPlanarFullRange)
    }
}
