import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records every photo of a capture (raw plus processed gives two).
final class PhotosRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let photos = Mutex<[(AVCapturePhoto, (any Error)?)]>([])
    let done = Completion<Void>("the capture's end")

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        photos.withLock { $0.append((photo, error)) }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        done.fulfil()
    }
}

/// An iOS 10 delegate: the deprecated sample-buffer callbacks only.
final class SampleBufferRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let processed = Mutex<(CMSampleBuffer?, CMSampleBuffer?, (any Error)?)?>(nil)
    let raw = Mutex<(CMSampleBuffer?, (any Error)?)?>(nil)
    let done = Completion<Void>("the capture's end")

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {
        processed.withLock { $0 = (photoSampleBuffer, previewPhotoSampleBuffer, error) }
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {
        raw.withLock { $0 = (rawSampleBuffer, error) }
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        done.fulfil()
    }
}

/// The deprecated declarations, reached through protocols so the tests compile without
/// deprecation warnings (which the build treats as errors).
protocol DeprecatedStillImageStabilizationOutput: AnyObject {
    var isStillImageStabilizationSupported: Bool { get }
    var isDualCameraFusionSupported: Bool { get }
    var isDualCameraDualPhotoDeliverySupported: Bool { get }
}
extension AVCapturePhotoOutput: DeprecatedStillImageStabilizationOutput {}
protocol DeprecatedStillImageStabilizationSettings: AnyObject {
    var isAutoStillImageStabilizationEnabled: Bool { get set }
    var isAutoDualCameraFusionEnabled: Bool { get set }
}
extension AVCapturePhotoSettings: DeprecatedStillImageStabilizationSettings {}
protocol DeprecatedStillImageStabilizationResolved: AnyObject {
    var isStillImageStabilizationEnabled: Bool { get }
    var isDualCameraFusionEnabled: Bool { get }
}
extension AVCaptureResolvedPhotoSettings: DeprecatedStillImageStabilizationResolved {}
protocol DeprecatedPhotoRepackaging {
    static func jpegPhotoDataRepresentation(forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data?
    static func dngPhotoDataRepresentation(forRawSampleBuffer rawSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data?
}
extension AVCapturePhotoOutput: DeprecatedPhotoRepackaging {}

/// The deprecated class methods, called through the protocol.
private func jpegData<T: DeprecatedPhotoRepackaging>(_: T.Type, _ jpeg: CMSampleBuffer, preview: CMSampleBuffer?) -> Data? {
    T.jpegPhotoDataRepresentation(forJPEGSampleBuffer: jpeg, previewPhotoSampleBuffer: preview)
}
private func dngData<T: DeprecatedPhotoRepackaging>(_: T.Type, _ raw: CMSampleBuffer) -> Data? {
    T.dngPhotoDataRepresentation(forRawSampleBuffer: raw, previewPhotoSampleBuffer: nil)
}

/// Means of the 8-bit channels (B, G, R for a photo's CGImage) over a grid of the image.
private func channelMeans(_ bytes: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, channels: Int, order: [Int]) -> [Double] {
    var sums = [Double](repeating: 0, count: order.count), count = 0.0
    for row in stride(from: 0, to: height, by: 5) {
        for column in stride(from: 0, to: width, by: 5) {
            for (index, channel) in order.enumerated() { sums[index] += Double(bytes[row * bytesPerRow + column * channels + channel]) }
            count += 1
        }
    }
    return sums.map { $0 / count }
}

/// The CGImage's red, green and blue means.
private func rgbMeans(_ image: CGImage) throws -> [Double] {
    let data = try #require(image.dataProvider?.data)
    #expect(CFDataGetLength(data) >= image.bytesPerRow * image.height)
    return channelMeans(CFDataGetBytePtr(data), width: image.width, height: image.height, bytesPerRow: image.bytesPerRow, channels: 4, order: [2, 1, 0])
}

/// The red, green and blue means of a file decoded by ffmpeg (an independent decoder).
private func ffmpegRGBMeans(_ url: URL, width: Int, height: Int) throws -> [Double] {
    let out = temporaryFile("rgb")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try #require(runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", out.path]))
    let rgb = try Data(contentsOf: out)
    #expect(rgb.count == width * height * 3)
    return rgb.withUnsafeBytes {
        channelMeans($0.bindMemory(to: UInt8.self).baseAddress!, width: width, height: height, bytesPerRow: width * 3, channels: 3, order: [0, 1, 2])
    }
}

@Suite("Photo output: depth, mattes, metadata, CGImage and the deprecated API", .serialized)
struct PhotoAuxiliaryTests {
    @Test("what the cameras lack answers as an iPhone without it; switching it off is accepted")
    func unsupportedAnswers() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let output = rig.photoOutput
        #expect(!output.isDepthDataDeliverySupported && !output.isPortraitEffectsMatteDeliverySupported)
        #expect(output.availableSemanticSegmentationMatteTypes.isEmpty && output.enabledSemanticSegmentationMatteTypes.isEmpty)
        #expect(!output.isVirtualDeviceFusionSupported && !output.isVirtualDeviceConstituentPhotoDeliverySupported)
        #expect(!output.isCameraCalibrationDataDeliverySupported && !output.isAutoRedEyeReductionSupported)
        #expect(!output.isContentAwareDistortionCorrectionSupported && !output.isConstantColorSupported && !output.isShutterSoundSuppressionSupported)
        let deprecated: any DeprecatedStillImageStabilizationOutput = output
        #expect(deprecated.isStillImageStabilizationSupported, "a simulated camera fuses .quality photos")
        #expect(!deprecated.isDualCameraFusionSupported && !deprecated.isDualCameraDualPhotoDeliverySupported)
        #expect(!(AVCapturePhotoOutput() as any DeprecatedStillImageStabilizationOutput).isStillImageStabilizationSupported)
        // AVCam's lines: each switch set to its support, false here, is accepted.
        output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported
        output.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliverySupported
        output.enabledSemanticSegmentationMatteTypes = output.availableSemanticSegmentationMatteTypes
        output.isContentAwareDistortionCorrectionEnabled = false
        output.isConstantColorEnabled = false
        output.isVirtualDeviceConstituentPhotoDeliveryEnabled = false
        #expect(!output.isDepthDataDeliveryEnabled && !output.isConstantColorEnabled)
        output.isFastCapturePrioritizationSupported = true
        #expect(!output.isFastCapturePrioritizationSupported, "the answer follows the configuration (responsive capture off)")
        #expect(output.supportedPhotoPixelFormatTypes(for: .tif) == [])
        #expect(output.supportedRawPhotoPixelFormatTypes(for: .dng) == [kCVPixelFormatType_14Bayer_RGGB])

        // A capture asking for what is off raises Apple's exception (checked form).
        let asks: [(String, (AVCapturePhotoSettings) -> Void)] = [
            ("depthDataDeliveryEnabled", { $0.isDepthDataDeliveryEnabled = true }),
            ("portraitEffectsMatteDeliveryEnabled", { $0.isPortraitEffectsMatteDeliveryEnabled = true }),
            ("enabledSemanticSegmentationMatteTypes", { $0.enabledSemanticSegmentationMatteTypes = [.skin] }),
            ("virtualDeviceConstituentPhotoDeliveryEnabledDevices", { $0.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [rig.rig.device] }),
            ("cameraCalibrationDataDeliveryEnabled", { $0.isCameraCalibrationDataDeliveryEnabled = true }),
            ("autoContentAwareDistortionCorrectionEnabled", { $0.isAutoContentAwareDistortionCorrectionEnabled = true }),
            ("constantColorEnabled", { $0.isConstantColorEnabled = true }),
            ("shutterSoundSuppressionEnabled", { $0.isShutterSoundSuppressionEnabled = true }),
            ("rawEmbeddedThumbnailPhotoFormat", { $0.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg] }),
        ]
        for (name, ask) in asks {
            let settings = PhotoReadinessTests.small()
            ask(settings)
            let thrown = #expect(throws: AVCaptureException.self) { try output.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
            #expect(thrown?.name == .invalidArgument && thrown?.reason.contains(name) == true, "\(name): \(thrown?.reason ?? "none")")
        }
    }

    @Test("settings: Apple's defaults, NSCopying keeps the uniqueID, init(from:) makes a new one and keeps the switches")
    func settingsDefaultsAndCopies() throws {
        let settings = AVCapturePhotoSettings()
        #expect(!settings.isAutoRedEyeReductionEnabled && settings.isAutoVirtualDeviceFusionEnabled)
        #expect((settings as any DeprecatedStillImageStabilizationSettings).isAutoStillImageStabilizationEnabled)
        #expect((settings as any DeprecatedStillImageStabilizationSettings).isAutoDualCameraFusionEnabled)
        #expect(!settings.isDepthDataDeliveryEnabled && settings.embedsDepthDataInPhoto && settings.isDepthDataFiltered)
        #expect(!settings.isPortraitEffectsMatteDeliveryEnabled && settings.embedsPortraitEffectsMatteInPhoto)
        #expect(settings.enabledSemanticSegmentationMatteTypes.isEmpty && settings.embedsSemanticSegmentationMattesInPhoto)
        #expect(settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.isEmpty && !settings.isCameraCalibrationDataDeliveryEnabled)
        #expect(settings.metadata.isEmpty && settings.livePhotoMovieMetadata.isEmpty && settings.rawEmbeddedThumbnailPhotoFormat == nil)
        #expect(!settings.isAutoContentAwareDistortionCorrectionEnabled && !settings.isConstantColorEnabled)
        #expect(!settings.isConstantColorFallbackPhotoDeliveryEnabled && !settings.isShutterSoundSuppressionEnabled)
        #expect(settings.availableRawEmbeddedThumbnailPhotoCodecTypes.isEmpty)
        let rawOnly = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)
        #expect(!(rawOnly as any DeprecatedStillImageStabilizationSettings).isAutoStillImageStabilizationEnabled && !rawOnly.isAutoVirtualDeviceFusionEnabled)
        let rawPlus = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        #expect(!(rawPlus as any DeprecatedStillImageStabilizationSettings).isAutoStillImageStabilizationEnabled && !rawPlus.isAutoVirtualDeviceFusionEnabled)
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0)])
        #expect(!bracket.isAutoVirtualDeviceFusionEnabled)

        settings.flashMode = .auto
        settings.metadata = ["{TIFF}": ["Artist": "A. Photographer"]]
        settings.isDepthDataFiltered = false
        settings.livePhotoVideoCodecType = .hevc
        let copy = try #require(settings.copy() as? AVCapturePhotoSettings)
        #expect(copy !== settings && copy.uniqueID == settings.uniqueID)
        #expect(copy.flashMode == .auto && !copy.isDepthDataFiltered && copy.livePhotoVideoCodecType == .hevc)
        #expect((copy.metadata["{TIFF}"] as? [String: Any])?["Artist"] as? String == "A. Photographer")
        let another = AVCapturePhotoSettings(from: settings)
        #expect(another.uniqueID != settings.uniqueID && !another.isDepthDataFiltered && another.metadata.count == 1)
        settings.livePhotoMovieMetadata = nil
        #expect(settings.livePhotoMovieMetadata == [])
    }

    @Test("raw plus JPEG: photoCount 1 then 2 of expectedPhotoCount 2, the source device type, bracket and lens answers, no CGImage for raw")
    func rawPlusProcessedPhotoCounts() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.photoQualityPrioritization = .speed  // Apple's rule for Bayer raw
        settings.maxPhotoDimensions = PhotoCodecTests.small
        let recorder = PhotosRecorder()
        rig.photoOutput.capturePhoto(with: settings, delegate: recorder)
        try recorder.done.wait()
        let photos = recorder.photos.withLock { $0 }
        #expect(photos.count == 2 && photos.allSatisfy { $0.1 == nil })
        let (raw, processed) = (try #require(photos.first?.0), try #require(photos.last?.0))
        #expect(raw.isRawPhoto && raw.photoCount == 1 && !processed.isRawPhoto && processed.photoCount == 2)
        #expect(processed.resolvedSettings.expectedPhotoCount == 2)
        for photo in [raw, processed] {
            #expect(photo.sourceDeviceType == .builtInWideAngleCamera && photo.sourceDeviceType == rig.rig.device.deviceType)
            #expect(photo.bracketSettings == nil && photo.sequenceCount == 0 && photo.lensStabilizationStatus == .unsupported)
            #expect(photo.depthData == nil && photo.portraitEffectsMatte == nil && photo.semanticSegmentationMatte(for: .hair) == nil)
            #expect(photo.cameraCalibrationData == nil && photo.constantColorConfidenceMap == nil)
            #expect(photo.constantColorCenterWeightedMeanConfidenceLevel == 0 && !photo.isConstantColorFallbackPhoto)
        }
        #expect(raw.cgImageRepresentation() == nil, "raw photos have no CGImage, as on iOS")
        let resolved = processed.resolvedSettings
        #expect(resolved.rawEmbeddedThumbnailDimensions == CMVideoDimensions(width: 0, height: 0))
        #expect(resolved.portraitEffectsMatteDimensions == CMVideoDimensions(width: 0, height: 0))
        #expect(resolved.dimensionsForSemanticSegmentationMatte(ofType: .teeth) == CMVideoDimensions(width: 0, height: 0))
        #expect(!resolved.isRedEyeReductionEnabled && !resolved.isVirtualDeviceFusionEnabled && !resolved.isContentAwareDistortionCorrectionEnabled)
        #expect(!(resolved as any DeprecatedStillImageStabilizationResolved).isDualCameraFusionEnabled)
    }

    @Test("settings.metadata goes into the file's EXIF (GPS, TIFF, Exif), read by exiftool, for JPEG and HEIC; base values it does not name stay")
    func metadataInTheFile() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        for codec in [AVVideoCodecType.jpeg, .hevc] {
            let settings = PhotoCodecTests.settings([AVVideoCodecKey: codec])
            settings.metadata = [
                "{GPS}": ["Latitude": 48.858_37, "LatitudeRef": "N", "Longitude": 2.294_48, "LongitudeRef": "W", "Altitude": 35.5, "AltitudeRef": 0,
                    "TimeStamp": "12:34:56.00", "DateStamp": "2026:12:01", "HPositioningError": 5.0],
                "{TIFF}": ["Artist": "A. Photographer", "Copyright": "CC BY 4.0", "Make": "Acme"],
                "{Exif}": ["UserComment": "at the tower", "LensModel": "Acme 26mm f/1.8"],
                "{IPTC}": ["Keywords": ["accepted, not written"]],
            ]
            let (photo, recorder) = try rig.take(settings)
            #expect(recorder.error.withLock { $0 } == nil)
            let taken = try #require(photo)
            let gps = try #require(taken.metadata["{GPS}"] as? [String: Any])
            #expect(gps["Latitude"] as? Double == 48.858_37 && gps["LongitudeRef"] as? String == "W")
            #expect((taken.metadata["{TIFF}"] as? [String: Any])?["Make"] as? String == "Acme")
            let url = temporaryFile(codec == .jpeg ? "jpg" : "heic")
            defer { try? FileManager.default.removeItem(at: url) }
            try #require(taken.fileDataRepresentation()).write(to: url)
            let tags = exiftoolTags(url, ["-n"])
            #expect(abs((tags["GPSLatitude"] as? Double ?? 0) - 48.858_37) < 1e-5, "\(codec.rawValue): \(tags["GPSLatitude"] ?? "none")")
            #expect(abs(abs(tags["GPSLongitude"] as? Double ?? 0) - 2.294_48) < 1e-5 && tags["GPSLongitudeRef"] as? String == "W")
            #expect(abs((tags["GPSAltitude"] as? Double ?? 0) - 35.5) < 1e-3 && tags["GPSAltitudeRef"] as? Int == 0)
            #expect(tags["GPSDateStamp"] as? String == "2026:12:01" && (tags["GPSTimeStamp"] as? String)?.hasPrefix("12:34:56") == true)
            #expect(tags["GPSHPositioningError"] as? Double == 5)
            #expect(tags["Artist"] as? String == "A. Photographer" && tags["Copyright"] as? String == "CC BY 4.0")
            #expect(tags["Make"] as? String == "Acme" && tags["Model"] as? String == rig.rig.device.modelID)
            #expect(tags["UserComment"] as? String == "at the tower" && tags["LensModel"] as? String == "Acme 26mm f/1.8")
            #expect((tags["ISO"] as? Int ?? 0) >= 34 && (tags["ExposureTime"] as? Double ?? 0) > 0, "base values stay")
            #expect(tags["ExifImageWidth"] as? Int == 352)
        }
    }

    @Test("cgImageRepresentation decodes the JPEG and HEIC files as ffmpeg does; previewCGImageRepresentation is the preview")
    func cgImages() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        for codec in [AVVideoCodecType.jpeg, .hevc] {
            let settings = PhotoCodecTests.settings([AVVideoCodecKey: codec])
            settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            let (photo, _) = try rig.take(settings)
            let taken = try #require(photo)
            let image = try #require(taken.cgImageRepresentation())
            #expect(image.width == 352 && image.height == 288 && image.bitsPerPixel == 32 && image.bitsPerComponent == 8)
            #expect(image.bytesPerRow >= 352 * 4 && image.alphaInfo == .noneSkipFirst && image.bitmapInfo.contains(.byteOrder32Little))
            #expect(taken.cgImageRepresentation() !== image, "a new image each call")
            // The independent decode: straight from the JPEG; the HEIC through heif-convert's PNG.
            let url = temporaryFile(codec == .jpeg ? "jpg" : "heic")
            let png = temporaryFile("png")
            defer {
                try? FileManager.default.removeItem(at: url)
                try? FileManager.default.removeItem(at: png)
            }
            try #require(taken.fileDataRepresentation()).write(to: url)
            var decodable = url
            if codec == .hevc {
                _ = try #require(runTool("/usr/bin/heif-convert", [url.path, png.path]))
                decodable = png
            }
            let ours = try rgbMeans(image), theirs = try ffmpegRGBMeans(decodable, width: 352, height: 288)
            for (a, b) in zip(ours, theirs) { #expect(abs(a - b) < 3, "\(codec.rawValue): \(ours) against ffmpeg's \(theirs)") }
            #expect(ours[0] > 20 && ours.max()! - ours.min()! > 1, "a picture, not a blank: \(ours)")

            let previewBuffer = try #require(taken.previewPixelBuffer)
            let preview = try #require(taken.previewCGImageRepresentation())
            #expect(preview.width == previewBuffer.width && preview.height == previewBuffer.height)
            #expect(CMVideoDimensions(width: Int32(preview.width), height: Int32(preview.height)) == taken.resolvedSettings.previewDimensions)
            let previewMeans = try rgbMeans(preview)
            #expect(abs(previewMeans[1] - meanGreen(previewBuffer, x: 0...1, y: 0...1)) < 3)
        }
        let uncompressed = PhotoCodecTests.settings([kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange])
        let (photo, _) = try rig.take(uncompressed)
        let image = try #require(photo?.cgImageRepresentation())
        #expect(image.width == 352 && image.height == 288 && photo?.previewCGImageRepresentation() == nil)
    }

    @Test("deprecated still image stabilization: resolved true when .quality fuses frames, off with the settings' switch")
    func stillImageStabilization() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 8)
        defer { rig.stop() }
        rig.photoOutput.maxPhotoQualityPrioritization = .quality
        func resolved(_ quality: AVCapturePhotoOutput.QualityPrioritization, stabilization: Bool = true) throws -> Bool {
            let settings = PhotoReadinessTests.small()
            settings.photoQualityPrioritization = quality
            (settings as any DeprecatedStillImageStabilizationSettings).isAutoStillImageStabilizationEnabled = stabilization
            let (photo, _) = try rig.take(settings)
            return try #require(photo?.resolvedSettings as (any DeprecatedStillImageStabilizationResolved)?).isStillImageStabilizationEnabled
        }
        #expect(try resolved(.quality))
        #expect(try !resolved(.quality, stabilization: false))
        #expect(try !resolved(.balanced))
    }

    @Test("an iOS 10 delegate gets sample buffers: JPEG bytes and the preview, repackaged with a thumbnail; the raw one gives its DNG; HEIC has none")
    func deprecatedSampleBufferCallbacks() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.photoQualityPrioritization = .speed  // Apple's rule for Bayer raw
        settings.maxPhotoDimensions = PhotoCodecTests.small
        settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        let recorder = SampleBufferRecorder()
        rig.photoOutput.capturePhoto(with: settings, delegate: recorder)
        try recorder.done.wait()
        let (jpegBuffer, previewBuffer, error) = try #require(recorder.processed.withLock { $0 })
        #expect(error == nil)
        let jpegSample = try #require(jpegBuffer), previewSample = try #require(previewBuffer)
        #expect(CMSampleBufferGetImageBuffer(previewSample) != nil)
        let plain = try #require(jpegData(AVCapturePhotoOutput.self, jpegSample, preview: nil))
        let withThumbnail = try #require(jpegData(AVCapturePhotoOutput.self, jpegSample, preview: previewSample))
        let url = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try withThumbnail.write(to: url)
        let tags = exiftoolTags(url, ["-n"])
        #expect(tags["ImageWidth"] as? Int == 352 && tags["Make"] as? String == "OpenCapture")
        #expect((tags["ThumbnailLength"] as? Int ?? 0) > 500, "the preview became the EXIF thumbnail: \(tags["ThumbnailLength"] ?? "none")")
        #expect(plain.count < withThumbnail.count && exiftoolTags(url, ["-n"])["ThumbnailImage"] != nil)

        let (rawBuffer, rawError) = try #require(recorder.raw.withLock { $0 })
        #expect(rawError == nil)
        let rawSample = try #require(rawBuffer)
        let dng = try #require(dngData(AVCapturePhotoOutput.self, rawSample))
        let dngURL = temporaryFile("dng")
        defer { try? FileManager.default.removeItem(at: dngURL) }
        try dng.write(to: dngURL)
        let dngTags = exiftoolTags(dngURL, ["-n"])
        #expect(dngTags["FileType"] as? String == "DNG" && dngTags["ImageWidth"] as? Int == 352)
        #expect(dngData(AVCapturePhotoOutput.self, jpegSample) == nil)

        let heic = SampleBufferRecorder()
        rig.photoOutput.capturePhoto(with: PhotoCodecTests.settings([AVVideoCodecKey: AVVideoCodecType.hevc]), delegate: heic)
        try heic.done.wait()
        let heicResult = try #require(heic.processed.withLock { $0 })
        #expect(heicResult.0 == nil && heicResult.2 != nil, "HEIC has no sample-buffer form")
    }

    @Test("livePhotoMovieMetadata goes into the Live Photo movie beside the content identifier (ffprobe)")
    func livePhotoMovieMetadata() throws {
        let (rig, photo) = try LivePhotoTests.rig(filled: false)
        defer { rig.stop() }
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings = PhotoReadinessTests.small()
        settings.livePhotoMovieFileURL = url
        let title = AVMutableMetadataItem()
        title.keySpace = .quickTimeMetadata
        title.key = "com.apple.quicktime.title" as NSString
        title.value = "Tower" as NSString
        let location = AVMutableMetadataItem()
        location.identifier = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.ISO6709")
        location.value = "+48.8584+002.2945/" as NSString
        settings.livePhotoMovieMetadata = [title, location]
        let delegate = LivePhotoDelegate()
        try photo.capturePhotoChecked(with: settings, delegate: delegate)
        try delegate.done.wait()
        #expect(delegate.captureError.withLock { $0 } == nil)
        let json = try FFprobe.json(url.path, ["-show_entries", "format_tags"])
        let tags = try #require((json["format"] as? [String: Any])?["tags"] as? [String: Any])
        #expect(tags["com.apple.quicktime.title"] as? String == "Tower", "\(tags)")
        #expect(tags["com.apple.quicktime.location.ISO6709"] as? String == "+48.8584+002.2945/")
        #expect(UUID(uuidString: tags["com.apple.quicktime.content.identifier"] as? String ?? "") != nil)
    }
}

@Suite("Live Photo sound", .serialized)
struct LivePhotoSoundTests {
    @Test("with a microphone in the session the Live Photo movie has an AAC track as long as its video, claps where they were (ffprobe, ffmpeg)")
    func livePhotoWithSound() throws {
        let rig = try TestRig(preset: .cif352x288)
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        let sound = try #require(microphone.microphoneSimulation)
        sound.pacing = .virtual
        sound.seed = 3
        sound.roomToneLevel = 35
        sound.removeAllSounds()
        for second in stride(from: 0.25, to: 30, by: 0.5) { sound.addClap(at: second, level: 110) }
        defer {
            rig.stop()
            sound.pacing = .realTime
            sound.removeAllSounds()
        }
        rig.session.addInput(try AVCaptureDeviceInput(device: microphone))
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        #expect(photo.connection(with: .audio) != nil && photo.connection(with: .video) != nil, "the photo output takes the microphone for Live Photo sound")
        photo.isLivePhotoCaptureEnabled = true
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(50)
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = try LivePhotoTests.take(photo, to: url)
        #expect(delegate.captureError.withLock { $0 } == nil)
        let movie = try #require(delegate.movie.withLock { $0 })
        #expect(movie.error == nil && abs(movie.duration.seconds - 3) < 0.15, "\(movie.duration.seconds) s")
        let streams = try FFprobe.streams(url.path, ["-show_streams"])
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" }, "\(streams)")
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(audio["codec_name"] as? String == "aac")
        #expect(Int(audio["sample_rate"] as? String ?? "") == Int(microphone.activeFormat.formatDescription.audioStreamBasicDescription?.mSampleRate ?? 0))
        let audioSeconds = Double(audio["duration"] as? String ?? "") ?? 0, videoSeconds = Double(video["duration"] as? String ?? "") ?? 0
        #expect(abs(audioSeconds - videoSeconds) < 0.15 && audioSeconds > 2.5, "audio \(audioSeconds) s, video \(videoSeconds) s")
        // Claps every half second (-10 dBFS peaks over a -43 dB room tone): six in three
        // seconds, half a second apart, decoded by ffmpeg.
        let pcm = temporaryFile("raw")
        defer { try? FileManager.default.removeItem(at: pcm) }
        _ = try #require(runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-vn", "-ac", "1", "-f", "s16le", pcm.path]))
        let samples = try Data(contentsOf: pcm).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var claps: [Double] = [], previous = false
        for window in stride(from: 0, to: samples.count - 2400, by: 2400) {  // 50 ms at 48 kHz
            let loud = samples[window..<window + 2400].contains { abs(Int($0)) > 3000 }
            if loud && !previous { claps.append(Double(window) / 48_000) }
            previous = loud
        }
        #expect((5...7).contains(claps.count), "claps heard at \(claps) s")
        #expect(zip(claps, claps.dropFirst()).allSatisfy { abs($1 - $0 - 0.5) < 0.06 }, "claps heard at \(claps) s")
    }

    @Test("on a full disk a Live Photo with sound ends in the movie's error; no movie, nothing half-written", .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func livePhotoWithSoundOnFullDisk() throws {
        // A 3 s CIF movie with sound is tens of kilobytes: 8 KB fills before its first second.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #require(runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", folder.path]) != nil, "mount an 8 KB tmpfs")
        defer { _ = runTool("/bin/umount", [folder.path]) }
        let rig = try TestRig(preset: .cif352x288)
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        let sound = try #require(microphone.microphoneSimulation)
        sound.pacing = .virtual
        defer {
            rig.stop()
            sound.pacing = .realTime
        }
        rig.session.addInput(try AVCaptureDeviceInput(device: microphone))
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        photo.isLivePhotoCaptureEnabled = true
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(50)
        let url = folder.appendingPathComponent("live.mov")
        let delegate = try LivePhotoTests.take(photo, to: url)
        #expect(delegate.events.withLock { $0 } == LivePhotoTests.order)
        let movie = try #require(delegate.movie.withLock { $0 })
        #expect(movie.error != nil, "the movie's callback carries the error")
        #expect(delegate.captureError.withLock { $0 } != nil, "the capture ends with the movie's error")
        #expect(delegate.photo.withLock { $0 }?.fileDataRepresentation() != nil, "the still (in memory) was fine")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let sizes = left.map { (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size]) as? Int ?? -1 }
        #expect(left.isEmpty, "nothing is left on the full disk: \(left) \(sizes) bytes")
    }

    @Test("a disabled microphone connection gives a Live Photo without sound, written (not waiting for sound that never comes)")
    func livePhotoWithTheMicrophoneOff() throws {
        let rig = try TestRig(preset: .cif352x288)
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        let sound = try #require(microphone.microphoneSimulation)
        sound.pacing = .virtual
        defer {
            rig.stop()
            sound.pacing = .realTime
        }
        rig.session.addInput(try AVCaptureDeviceInput(device: microphone))
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        try #require(photo.connection(with: .audio)).isEnabled = false
        photo.isLivePhotoCaptureEnabled = true
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(10)
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = try LivePhotoTests.take(photo, to: url)
        #expect(delegate.captureError.withLock { $0 } == nil)
        let probe = try #require(runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", url.path]))
        // Pictures and the still-image-time track; no sound.
        #expect(probe.split(separator: "\n") == ["video", "data"], "\(probe)")
    }
}

@Suite("Enabling photo features the cameras lack ends the process")
struct PhotoAuxiliaryExitTests {
    @Test func depthDataDelivery() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isDepthDataDeliveryEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput setDepthDataDeliveryEnabled:] depthDataDeliverySupported is NO'"))
    }

    @Test func portraitEffectsMatteDelivery() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isPortraitEffectsMatteDeliveryEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("setPortraitEffectsMatteDeliveryEnabled:] portraitEffectsMatteDeliverySupported is NO"))
    }

    @Test func semanticSegmentationMattes() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().enabledSemanticSegmentationMatteTypes = [.hair]
        }
        #expect(ExceptionExitTests.message(result).contains(
            "setEnabledSemanticSegmentationMatteTypes:] AVSemanticSegmentationMatteTypeHair is not present in availableSemanticSegmentationMatteTypes"))
    }

    @Test func constituentPhotoDelivery() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isVirtualDeviceConstituentPhotoDeliveryEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("virtualDeviceConstituentPhotoDeliverySupported is NO"))
    }

    @Test func contentAwareDistortionCorrection() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isContentAwareDistortionCorrectionEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("contentAwareDistortionCorrectionSupported is NO"))
    }

    @Test func constantColor() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isConstantColorEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoOutput setConstantColorEnabled:] constantColorSupported is NO"))
    }

    @Test func depthRequestedAtCapture() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            session.startRunning()
            let settings = AVCapturePhotoSettings()
            settings.isDepthDataDeliveryEnabled = true
            output.capturePhoto(with: settings, delegate: PhotoRecorder())
        }
        #expect(ExceptionExitTests.message(result).contains(
            "capturePhotoWithSettings:delegate:] settings.depthDataDeliveryEnabled may not be YES unless self.depthDataDeliveryEnabled is YES"))
    }

    @Test func shutterSoundSuppressionAtCapture() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            session.startRunning()
            let settings = AVCapturePhotoSettings()
            settings.isShutterSoundSuppressionEnabled = true
            output.capturePhoto(with: settings, delegate: PhotoRecorder())
        }
        #expect(ExceptionExitTests.message(result).contains("shutterSoundSuppressionSupported is YES"))
    }

    @Test func metadataKeyOutsideImageIO() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoSettings().metadata = ["{GPS}": [:], "Location": "Paris"]
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoSettings setMetadata:] Unsupported metadata key Location"))
    }

    @Test func liveMovieMetadataWithTheContentIdentifier() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let item = AVMutableMetadataItem()
            item.keySpace = .quickTimeMetadata
            item.key = "com.apple.quicktime.content.identifier" as NSString
            item.value = "mine" as NSString
            AVCapturePhotoSettings().livePhotoMovieMetadata = [item]
        }
        #expect(ExceptionExitTests.message(result).contains("livePhotoMovieMetadata may not contain AVMetadataQuickTimeMetadataKeyContentIdentifier"))
    }
}
