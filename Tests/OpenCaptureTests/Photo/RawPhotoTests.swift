import ColorScience
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Develops a DNG with rawpy (LibRaw) into linear sRGB, with its as-shot white balance and
/// then without (LibRaw's daylight balance from the D65 matrix), and prints the size and
/// both mean RGBs (0 ... 1) of the middle quarter.
private let develop = """
    import sys, rawpy
    for camera_wb in (True, False):
        with rawpy.imread(sys.argv[1]) as raw:
            rgb = raw.postprocess(use_camera_wb=camera_wb, no_auto_bright=True, output_bps=16, gamma=(1, 1),
                                  output_color=rawpy.ColorSpace.sRGB, user_flip=0)
        h, w, _ = rgb.shape
        mean = rgb[h // 4:3 * h // 4, w // 4:3 * w // 4].reshape(-1, 3).mean(axis=0) / 65535
        if camera_wb: print(w, h, *mean, end=" ")
        else: print(*mean)
    """

/// Raw (Bayer) photos as DNG files, at CIF size.
@Suite("Photo features Linux lacks end the process when turned on")
struct PhotoUnsupportedExitTests {
    @Test func appleProRAW() async {
        #expect(!AVCapturePhotoOutput().isAppleProRAWSupported && !AVCapturePhotoOutput().isAppleProRAWEnabled)
        await #expect(processExitsWith: .signal(SIGABRT)) { AVCapturePhotoOutput().isAppleProRAWEnabled = true }
    }

    @Test func deferredDelivery() async {
        #expect(!AVCapturePhotoOutput().isAutoDeferredPhotoDeliverySupported && !AVCapturePhotoOutput().isAutoDeferredPhotoDeliveryEnabled)
        await #expect(processExitsWith: .signal(SIGABRT)) { AVCapturePhotoOutput().isAutoDeferredPhotoDeliveryEnabled = true }
    }
}

@Suite("Raw photos", .serialized)
struct RawPhotoTests {
    @Test("raw formats and file types: the simulated camera's RGGB mosaic in DNG; bad raw settings raise")
    func lists() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let output = rig.photoOutput
        #expect(output.availableRawPhotoPixelFormatTypes == [kCVPixelFormatType_14Bayer_RGGB])
        #expect(output.availableRawPhotoFileTypes == [.dng])
        #expect(output.availablePhotoFileTypes == [.heic, .jpg, .dng])
        #expect(output.supportedRawPhotoPixelFormatTypes(for: .dng) == [kCVPixelFormatType_14Bayer_RGGB])
        #expect(output.supportedRawPhotoPixelFormatTypes(for: .jpg).isEmpty)
        #expect(AVCapturePhotoOutput.isBayerRAWPixelFormat(kCVPixelFormatType_14Bayer_RGGB))
        #expect(!AVCapturePhotoOutput.isBayerRAWPixelFormat(kCVPixelFormatType_32BGRA))
        #expect(!AVCapturePhotoOutput.isAppleProRAWPixelFormat(kCVPixelFormatType_14Bayer_RGGB))
        #expect(AVCapturePhotoOutput().availableRawPhotoPixelFormatTypes.isEmpty, "no camera, no raw")
        let rawOnly = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)
        #expect(rawOnly.rawPhotoPixelFormatType == kCVPixelFormatType_14Bayer_RGGB && rawOnly.rawFileType == .dng)
        #expect(rawOnly.format == nil && rawOnly.processedFileType == nil)
        #expect(AVCapturePhotoSettings().rawPhotoPixelFormatType == 0 && AVCapturePhotoSettings().rawFileType == nil)
        let wrong = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_BGGR)
        let thrown = #expect(throws: AVCaptureException.self) { try output.capturePhotoChecked(with: wrong, delegate: PhotoRecorder()) }
        #expect(thrown?.reason.contains("availableRawPhotoPixelFormatTypes") == true)
        let wrongFile = AVCapturePhotoSettings(
            rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, rawFileType: .jpg, processedFormat: nil, processedFileType: nil)
        #expect(throws: AVCaptureException.self) { try output.capturePhotoChecked(with: wrongFile, delegate: PhotoRecorder()) }
    }

    @Test("raw plus JPEG: the DNG comes first, and rawpy develops a grey wall under tungsten light to neutral (ΔE2000 ≤ 3)")
    func dngDevelopsNeutral() throws {
        let rig = try TestRig(preset: .cif352x288)
        let simulation = try #require(rig.device.simulation)
        try simulation.setScene(.flat(reflectance: 0.18))
        let tungsten = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 3200, tint: 0)
        simulation.sceneIlluminant = tungsten
        let output = AVCapturePhotoOutput()
        rig.session.addOutput(output)
        defer {
            rig.stop()
            try? simulation.setScene(.chart)
            simulation.sceneIlluminant = .init(temperature: 6500, tint: 0)
            try? rig.device.lockForConfiguration()
            rig.device.whiteBalanceMode = .continuousAutoWhiteBalance
            rig.device.unlockForConfiguration()
        }
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        try rig.device.lockForConfiguration()
        rig.device.setWhiteBalanceModeLocked(with: rig.device.deviceWhiteBalanceGains(for: tungsten))
        rig.device.unlockForConfiguration()
        try rig.collector.waitForMoreFrames(20)  // exposure settles
        rig.collector.delay = 0.05

        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.photoQualityPrioritization = .speed  // Apple's rule for Bayer raw
        settings.maxPhotoDimensions = PhotoCodecTests.small
        let photos = RawRecorder()
        output.capturePhoto(with: settings, delegate: photos)
        try photos.done.wait()
        let delivered = photos.photos.withLock { $0 }
        #expect(delivered.map(\.isRawPhoto) == [true, false])
        let raw = try #require(delivered.first)
        #expect(raw.resolvedSettings.expectedPhotoCount == 2)
        #expect(raw.resolvedSettings.rawPhotoDimensions == PhotoCodecTests.small)
        let dng = try #require(raw.fileDataRepresentation())
        #expect(dng.prefix(4) == Data([0x49, 0x49, 42, 0]))
        let url = temporaryFile("dng")
        defer { try? FileManager.default.removeItem(at: url) }
        try dng.write(to: url)

        let tags = exiftoolTags(url, ["-CFAPattern", "-DNGVersion", "-ISO", "-ExposureTime", "-AsShotNeutral", "-CalibrationIlluminant1", "-CalibrationIlluminant2"])
        #expect(tags["CFAPattern"] as? String == "[Red,Green][Green,Blue]")
        #expect(tags["DNGVersion"] as? String == "1.4.0.0")
        #expect(tags["CalibrationIlluminant1"] as? String == "Standard Light A" && tags["CalibrationIlluminant2"] as? String == "D65")
        #expect((tags["ISO"] as? Int ?? 0) > 0 && tags["ExposureTime"] != nil)
        // Tungsten light: the camera sees far less blue than red in the grey.
        let neutral = (tags["AsShotNeutral"] as? String ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(neutral.count == 3 && neutral[2] < 0.8 * neutral[0], "AsShotNeutral \(neutral)")

        let developed = try #require(runTool("/usr/bin/env", ["python3", "-c", develop, url.path]))
        let values = developed.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(values.count == 8, "rawpy printed \(developed)")
        #expect(values[0] == 352 && values[1] == 288)
        func fromNeutral(_ rgb: SIMD3<Double>) -> (lab: Lab, difference: Double) {
            let lab = Lab(xyz: RGBColorSpace.sRGB.toXYZ * rgb, referenceWhite: RGBColorSpace.sRGB.white)
            return (lab, ColorDifference.ciede2000(lab, Lab(L: lab.L, a: 0, b: 0)))
        }
        let asShot = fromNeutral(SIMD3(values[2], values[3], values[4]))
        #expect(asShot.lab.L > 20, "developed grey is exposed: L* \(asShot.lab.L)")
        #expect(asShot.difference <= 3, "developed grey is L*a*b* \(asShot.lab), ΔE2000 \(asShot.difference) from neutral")
        // Without AsShotNeutral the same raw develops orange: the neutral is what makes it grey.
        let daylight = fromNeutral(SIMD3(values[5], values[6], values[7]))
        #expect(daylight.difference > 10 && daylight.lab.b > 0, "daylight-balanced: \(daylight.lab), ΔE2000 \(daylight.difference)")
    }
}

/// Keeps every photo a capture delivers.
final class RawRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let photos = Mutex<[AVCapturePhoto]>([])
    let done = Completion<Void>("the raw capture's end")

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        photos.withLock { $0.append(photo) }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        done.fulfil()
    }
}
