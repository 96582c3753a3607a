import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records a photo capture's callbacks: every photo (a bracket delivers several), the last
/// one in `photo`, and the first error.
final class PhotoRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let events = Mutex<[String]>([])
    let photo = Mutex<AVCapturePhoto?>(nil)
    let photos = Mutex<[AVCapturePhoto]>([])
    let error = Mutex<(any Error)?>(nil)
    let done = Completion<Void>("the photo capture's end")

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        events.withLock { $0.append("willBegin") }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        events.withLock { $0.append("willCapture") }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        events.withLock { $0.append("didCapture") }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        events.withLock { $0.append("didFinishProcessing") }
        self.photo.withLock { $0 = photo }
        photos.withLock { $0.append(photo) }
        self.error.withLock { if $0 == nil { $0 = error } }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        events.withLock { $0.append("didFinishCapture") }
        done.fulfil()
    }

    func wait(sourceLocation: SourceLocation = #_sourceLocation) throws -> AVCapturePhoto? {
        try done.wait(sourceLocation: sourceLocation)
        return photo.withLock { $0 }
    }
}

/// A session with a photo output (and a frame output to know the stream runs).
struct PhotoRig {
    let rig: TestRig
    let photoOutput = AVCapturePhotoOutput()

    /// Runs the stream `settle` frames (exposure settles in about 20) before photos are taken.
    init(uniqueID: String = "sim:back-wide", preset: AVCaptureSession.Preset = .hd1280x720, luminance: Float? = nil, settle: Int = 20) throws {
        rig = try TestRig(uniqueID: uniqueID, preset: preset)
        if let luminance { rig.device.simulation?.sceneLuminance = luminance }
        rig.session.addOutput(photoOutput)
        rig.session.startRunning()
        try rig.collector.waitForFrames(settle)
        // Settled, the virtual-time stream goes on at about 20 frames a second instead of as
        // fast as the cores allow (it waits for the delegate), leaving them to the photos.
        rig.collector.delay = 0.05
    }

    func take(_ settings: AVCapturePhotoSettings, sourceLocation: SourceLocation = #_sourceLocation) throws -> (AVCapturePhoto?, PhotoRecorder) {
        let recorder = PhotoRecorder()
        photoOutput.capturePhoto(with: settings, delegate: recorder)
        return (try recorder.wait(sourceLocation: sourceLocation), recorder)
    }

    func stop() {
        rig.stop()
        rig.device.simulation?.sceneLuminance = 200
    }
}

/// The mean of a BGRA buffer's green channel over a region.
func meanGreen(_ buffer: CVPixelBuffer, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
    let width = Double(CVPixelBufferGetWidth(buffer)), height = Double(CVPixelBufferGetHeight(buffer))
    var sum = 0.0, count = 0.0
    for row in stride(from: Int(y.lowerBound * height), to: Int(y.upperBound * height), by: 7) {
        for column in stride(from: Int(x.lowerBound * width), to: Int(x.upperBound * width), by: 7) {
            sum += Double(base[row * CVPixelBufferGetBytesPerRow(buffer) + column * 4 + 1])
            count += 1
        }
    }
    return sum / count
}

@Suite("AVCapturePhotoOutput", .serialized)
struct PhotoOutputTests {
    @Test("a JPEG at full sensor resolution, with EXIF, through the delegate in Apple's order")
    func jpegPhoto() throws {
        // Full-resolution frames are costly; what is tested needs no settled exposure.
        let rig = try PhotoRig(preset: .photo, settle: 3)
        defer { rig.stop() }
        #expect(rig.photoOutput.supportedFlashModes == [.off, .on, .auto])
        #expect(rig.photoOutput.maxPhotoDimensions == CMVideoDimensions(width: 4032, height: 3024))
        let settings = AVCapturePhotoSettings()
        #expect(settings.flashMode == .off && settings.photoQualityPrioritization == .balanced)
        let (photo, recorder) = try rig.take(settings)
        let taken = try #require(photo)
        #expect(recorder.events.withLock { $0 } == ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishCapture"])
        #expect(recorder.error.withLock { $0 } == nil)
        #expect(taken.resolvedSettings.uniqueID == settings.uniqueID)
        #expect(taken.resolvedSettings.photoDimensions == CMVideoDimensions(width: 4032, height: 3024))
        #expect(taken.pixelBuffer == nil)
        let data = try #require(taken.fileDataRepresentation())
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        #expect(data.range(of: Data("Exif".utf8)) != nil)
        #expect(taken.timestamp.isNumeric)
        let exif = try #require(taken.metadata["{Exif}"] as? [String: Any])
        #expect((exif["ExposureTime"] as? Double ?? 0) > 0)
        #expect((exif["ISOSpeedRatings"] as? [Int])?.first ?? 0 >= 34)
        #expect(exif["FNumber"] as? Double == Double(rig.rig.device.lensAperture))
        #expect((exif["FocalLength"] as? Double ?? 0) > 1)
        #expect(exif["PixelXDimension"] as? Int == 4032)
        #expect((taken.metadata["{TIFF}"] as? [String: Any])?["Make"] as? String == "OpenCapture")
        #expect(taken.metadata["Orientation"] as? Int == 1)
    }

    @Test("an uncompressed BGRA photo carries its pixel buffer, upright markers and no file data")
    func uncompressedPhoto() throws {
        let rig = try PhotoRig()
        defer { rig.stop() }
        // A 16:9 video format takes 16:9 photos the full sensor width, as iPhones do.
        #expect(rig.photoOutput.maxPhotoDimensions == CMVideoDimensions(width: 4032, height: 2268))
        let (photo, _) = try rig.take(AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]))
        let buffer = try #require(photo?.pixelBuffer)
        #expect(CVPixelBufferGetWidth(buffer) == 4032 && CVPixelBufferGetHeight(buffer) == 2268)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        #expect(photo?.fileDataRepresentation() == nil)
        let white = bgraPixel(buffer, x: 0.1, y: 0.1)
        let red = bgraPixel(buffer, x: 0.9, y: 0.1)
        #expect(white.g > red.g + 60 && red.r > red.g + 60)
    }

    @Test("the flash really lights a dim scene: a brighter photo at lower ISO")
    func flashLightsTheScene() throws {
        let rig = try PhotoRig(luminance: 3)
        defer { rig.stop() }
        let bgra = [kCVPixelFormatType_32BGRA]
        let plain = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: bgra[0]])
        let flashed = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: bgra[0]])
        flashed.flashMode = .on
        // The light is in the metering, not the size: quarter-size photos show it.
        for settings in [plain, flashed] { settings.maxPhotoDimensions = CMVideoDimensions(width: 1008, height: 567) }
        let (dark, _) = try rig.take(plain)
        let (lit, _) = try rig.take(flashed)
        let darkPhoto = try #require(dark), litPhoto = try #require(lit)
        #expect(litPhoto.resolvedSettings.isFlashEnabled && !darkPhoto.resolvedSettings.isFlashEnabled)
        let darkISO = (darkPhoto.metadata["{Exif}"] as? [String: Any])?["ISOSpeedRatings"] as? [Int]
        let litISO = (litPhoto.metadata["{Exif}"] as? [String: Any])?["ISOSpeedRatings"] as? [Int]
        #expect((litISO?.first ?? .max) < (darkISO?.first ?? 0), "flash needs less gain")
        #expect(((litPhoto.metadata["{Exif}"] as? [String: Any])?["Flash"] as? Int ?? 0) & 1 == 1, "EXIF says the flash fired")
    }

    @Test("the front camera has no flash")
    func frontCameraFlashModes() throws {
        let rig = try PhotoRig(uniqueID: "sim:front-wide")
        defer { rig.stop() }
        #expect(rig.photoOutput.supportedFlashModes == [.off])
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .on
        #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
    }

    @Test("settings are single-use, sizes are bounded, and a stopped session cannot take photos")
    func settingsRules() throws {
        let rig = try PhotoRig()
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = CMVideoDimensions(width: 1008, height: 567)  // any size will do
        _ = try rig.take(settings)
        let reused = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
        #expect(reused?.reason.contains("re-used") == true)
        let copy = AVCapturePhotoSettings(from: settings)
        #expect(copy.uniqueID != settings.uniqueID)
        let huge = AVCapturePhotoSettings()
        huge.maxPhotoDimensions = CMVideoDimensions(width: 8000, height: 6000)
        #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: huge, delegate: PhotoRecorder()) }
        let quality = AVCapturePhotoSettings()
        quality.photoQualityPrioritization = .quality
        #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: quality, delegate: PhotoRecorder()) }
        rig.stop()
        #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: copy, delegate: PhotoRecorder()) }
    }

    @Test("one photo output per session")
    func onePhotoOutput() throws {
        let session = AVCaptureSession()
        session.addOutput(AVCapturePhotoOutput())
        #expect(!session.canAddOutput(AVCapturePhotoOutput()))
        #expect(session.canAddOutput(AVCaptureMovieFileOutput()))
        #expect(session.canAddOutput(AVCaptureVideoDataOutput()))
    }
}
