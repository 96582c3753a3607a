import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// The mean code of a Bayer pixel buffer (16-bit words) over its middle quarter.
func meanBayerCode(_ buffer: CVPixelBuffer) -> Double {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let base = CVPixelBufferGetBaseAddress(buffer)!, stride = CVPixelBufferGetBytesPerRow(buffer)
    let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
    var sum = 0.0, count = 0
    for row in (height / 4)..<(3 * height / 4) {
        let words = (base + row * stride).assumingMemoryBound(to: UInt16.self)
        for column in (width / 4)..<(3 * width / 4) {
            sum += Double(words[column])
            count += 1
        }
    }
    return sum / Double(count)
}

/// Bracketed captures on the simulated camera: each photo really exposed with its entry.
@Suite("Bracketed photos", .serialized)
struct BracketPhotoTests {
    /// A grey wall (18 % reflectance) at CIF, exposure settled.
    static func greyWall() throws -> PhotoRig {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        try rig.rig.device.simulation?.setScene(.flat(reflectance: 0.18))
        try rig.rig.collector.waitForMoreFrames(20)
        return rig
    }

    static func take(_ settings: AVCapturePhotoSettings, with output: AVCapturePhotoOutput) throws -> (PhotoRecorder, [AVCapturePhoto]) {
        let recorder = PhotoRecorder()
        output.capturePhoto(with: settings, delegate: recorder)
        try recorder.done.wait()
        return (recorder, recorder.photos.withLock { $0 })
    }

    @Test("an auto-exposure raw bracket of −1, 0, +1 EV on a grey wall: light doubles per EV, the callbacks carry the bracket")
    func autoExposureBracket() throws {
        let rig = try Self.greyWall()
        defer {
            rig.stop()
            try? rig.rig.device.simulation?.setScene(.chart)
        }
        let output = rig.photoOutput
        #expect(output.maxBracketedCapturePhotoCount == 4)
        #expect(!output.isLensStabilizationDuringBracketedCaptureSupported)
        let entries = [-1, 0, 1].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: Float($0)) }
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: nil, bracketedSettings: entries)
        settings.photoQualityPrioritization = .speed
        settings.maxPhotoDimensions = PhotoCodecTests.small
        let (recorder, photos) = try Self.take(settings, with: output)
        #expect(recorder.events.withLock { $0 } == ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishProcessing", "didFinishProcessing", "didFinishCapture"])
        #expect(recorder.error.withLock { $0 } == nil, "no photo of the bracket failed")
        try #require(photos.count == 3)
        #expect(photos.map(\.resolvedSettings.expectedPhotoCount) == [3, 3, 3])
        #expect(photos.map(\.photoCount) == [1, 2, 3])
        #expect(photos.map(\.sequenceCount) == [1, 2, 3])
        #expect(photos.map(\.isRawPhoto) == [true, true, true])
        #expect(photos.map(\.lensStabilizationStatus) == [.unsupported, .unsupported, .unsupported])
        for (photo, entry) in zip(photos, entries) { #expect(photo.bracketSettings === entry) }
        #expect(photos[0].timestamp < photos[1].timestamp && photos[1].timestamp < photos[2].timestamp, "successive frames")

        // The mosaic's light above black: about twice per EV (the wall is far from clipping).
        let url = temporaryFile("dng")
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(photos[0].fileDataRepresentation()).write(to: url)
        let black = Double(exiftoolTags(url, ["-BlackLevel"])["BlackLevel"] as? Int ?? -1)
        try #require(black >= 0)
        let light = photos.map { meanBayerCode($0.pixelBuffer!) - black }
        #expect(light[1] / light[0] > 1.7 && light[1] / light[0] < 2.3, "0 EV over −1 EV: \(light)")
        #expect(light[2] / light[1] > 1.7 && light[2] / light[1] < 2.3, "+1 EV over 0 EV: \(light)")
        // EXIF per photo: exposure time × ISO doubles too.
        let totals = photos.map { photo -> Double in
            let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
            let time = exif["ExposureTime"] as? Double ?? 0
            let iso = (exif["ISOSpeedRatings"] as? [Int])?.first ?? 0
            return time * Double(iso)
        }
        #expect(abs(totals[1] / totals[0] - 2) < 0.1 && abs(totals[2] / totals[1] - 2) < 0.1, "exposure × ISO \(totals)")
    }

    @Test("a manual bracket with JPEG: each file's EXIF has its own exposure time and ISO (exiftool)")
    func manualBracket() throws {
        let rig = try Self.greyWall()
        defer {
            rig.stop()
            try? rig.rig.device.simulation?.setScene(.chart)
        }
        let format = rig.rig.device.activeFormat
        let iso = max(format.minISO, 100), iso2 = min(format.maxISO, 2 * iso)
        let first = AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
            exposureDuration: CMTime(value: 1, timescale: 200), iso: iso)
        let second = AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
            exposureDuration: CMTime(value: 1, timescale: 100), iso: iso2)
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg], bracketedSettings: [first, second])
        settings.maxPhotoDimensions = PhotoCodecTests.small
        let (_, photos) = try Self.take(settings, with: rig.photoOutput)
        try #require(photos.count == 2)
        #expect(photos.map(\.sequenceCount) == [1, 2] && photos.map(\.photoCount) == [1, 2])
        var tags: [[String: Any]] = []
        for photo in photos {
            let url = temporaryFile("jpg")
            defer { try? FileManager.default.removeItem(at: url) }
            try #require(photo.fileDataRepresentation()).write(to: url)
            tags.append(exiftoolTags(url, ["-ExposureTime", "-ISO"]))
        }
        #expect(tags[0]["ExposureTime"] as? String == "1/200" && tags[0]["ISO"] as? Int == Int(iso), "\(tags[0])")
        #expect(tags[1]["ExposureTime"] as? String == "1/100" && tags[1]["ISO"] as? Int == Int(iso2), "\(tags[1])")
    }

    @Test("a raw photo's pixel buffer is the DNG's mosaic: 'rgg4', the DNG's RGGB pattern, the same codes (rawpy)")
    func rawPixelBuffer() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 20)
        defer { rig.stop() }
        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)
        settings.photoQualityPrioritization = .speed
        let (_, photos) = try Self.take(settings, with: rig.photoOutput)
        let photo = try #require(photos.first)
        let buffer = try #require(photo.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_14Bayer_RGGB)
        let size = photo.resolvedSettings.rawPhotoDimensions
        #expect(CVPixelBufferGetWidth(buffer) == Int(size.width) && CVPixelBufferGetHeight(buffer) == Int(size.height))
        #expect(CVPixelBufferGetBytesPerRow(buffer) >= Int(size.width) * 2 && !CVPixelBufferIsPlanar(buffer))

        let url = temporaryFile("dng")
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(photo.fileDataRepresentation()).write(to: url)
        let script = """
            import sys, rawpy
            with rawpy.imread(sys.argv[1]) as raw:
                image = raw.raw_image_visible
                h, w = image.shape
                pattern = "".join(raw.color_desc.decode()[i] for i in raw.raw_pattern.flatten())
                print(pattern, w, h, int(image.astype("int64").sum()), int(image[0, 0]), int(image[0, 1]), int(image[1, 0]), int(image[h // 2, w // 3]))
            """
        let printed = try #require(runTool("/usr/bin/env", ["python3", "-c", script, url.path]))
        let fields = printed.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(fields.count == 8, "rawpy printed \(printed)")
        #expect(fields[0] == "RGGB")
        let width = Int(size.width), height = Int(size.height)
        #expect(Int(fields[1]) == width && Int(fields[2]) == height)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(buffer)!, stride = CVPixelBufferGetBytesPerRow(buffer)
        func code(_ row: Int, _ column: Int) -> Int { Int((base + row * stride).assumingMemoryBound(to: UInt16.self)[column]) }
        var sum = 0
        for row in 0..<height { for column in 0..<width { sum += code(row, column) } }
        #expect(Int(fields[3]) == sum)
        #expect(Int(fields[4]) == code(0, 0) && Int(fields[5]) == code(0, 1) && Int(fields[6]) == code(1, 0))
        #expect(Int(fields[7]) == code(height / 2, width / 3))
    }

    @Test("raw needs speed prioritization: balanced and quality are refused with Apple's message")
    func bayerNeedsSpeed() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        rig.photoOutput.maxPhotoQualityPrioritization = .quality
        for priority in [AVCapturePhotoOutput.QualityPrioritization.balanced, .quality] {
            let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            settings.photoQualityPrioritization = priority
            let thrown = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
            #expect(thrown?.reason.contains("When specifying Bayer raw capture, settings.photoQualityPrioritization must be set to AVCapturePhotoQualityPrioritizationSpeed") == true)
        }
    }
}

/// Apple's bracket and Bayer RAW rules end the process.
@Suite("Bracket and raw rules end the process")
struct BracketExitTests {
    static func bias(_ value: Float) -> AVCaptureBracketedStillImageSettings {
        AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: value)
    }

    static func capture(_ settings: AVCapturePhotoSettings) {
        let (session, output) = ResponsiveCaptureExitTests.connected()
        session.startRunning()
        withExtendedLifetime(session) { output.capturePhoto(with: settings, delegate: PhotoRecorder()) }
    }

    @Test func bayerRawAtBalanced() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            BracketExitTests.capture(AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB))
        }
        #expect(ExceptionExitTests.message(result).contains(
            "-[AVCapturePhotoOutput capturePhotoWithSettings:delegate:] When specifying Bayer raw capture, settings.photoQualityPrioritization must be set to AVCapturePhotoQualityPrioritizationSpeed"))
    }

    @Test func moreThanMaxBracketedCapturePhotoCount() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            BracketExitTests.capture(AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: (0..<5).map { _ in BracketExitTests.bias(0) }))
        }
        #expect(ExceptionExitTests.message(result).contains("bracketedSettings.count (5) must be <= maxBracketedCapturePhotoCount (4)"))
    }

    @Test func emptyBracket() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [])
        }
        #expect(ExceptionExitTests.message(result).contains("+[AVCapturePhotoBracketSettings photoBracketSettingsWithRawPixelFormatType:rawFileType:processedFormat:processedFileType:bracketedSettings:] bracketedSettings must contain at least one element"))
    }

    @Test func mixedKinds() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let manual = AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                exposureDuration: AVCaptureDevice.currentExposureDuration, iso: AVCaptureDevice.currentISO)
            _ = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [BracketExitTests.bias(0), manual])
        }
        #expect(ExceptionExitTests.message(result).contains("bracketedSettings may not mix"))
    }

    @Test func flashInBracket() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [BracketExitTests.bias(0)]).flashMode = .on
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoBracketSettings setFlashMode:] AVCapturePhotoBracketSettings do not support flashMode"))
    }

    @Test func livePhotoBracket() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [BracketExitTests.bias(0)])
            settings.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/never.mov")
        }
        #expect(ExceptionExitTests.message(result).contains("AVCapturePhotoBracketSettings do not support livePhotoMovieFileURL"))
    }

    @Test func lensStabilizationUnsupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [BracketExitTests.bias(0)])
            settings.isLensStabilizationEnabled = true
            BracketExitTests.capture(settings)
        }
        #expect(ExceptionExitTests.message(result).contains("lensStabilizationEnabled may not be YES unless self.lensStabilizationDuringBracketedCaptureSupported is YES"))
    }

    @Test func biasOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            BracketExitTests.capture(AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [BracketExitTests.bias(9)]))
        }
        #expect(ExceptionExitTests.message(result).contains("For auto exposure brackets, exposureTargetBias value (9.0) must be within the source device's minExposureTargetBias"))
    }

    @Test func isoOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let manual = AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                exposureDuration: AVCaptureDevice.currentExposureDuration, iso: 1)
            BracketExitTests.capture(AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [manual]))
        }
        #expect(ExceptionExitTests.message(result).contains("For manual exposure brackets, ISO value (1.0) must be within the source device activeFormat's minISO"))
    }
}
