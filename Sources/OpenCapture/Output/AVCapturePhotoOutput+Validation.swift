import Foundation

extension AVCapturePhotoOutput {
    /// Apple's checks of `settings` for `selector`; `consuming` marks the settings used
    /// (a capture), so they cannot be used again.
    func validate(
        _ settings: AVCapturePhotoSettings, consuming: Bool = true, selector: String = "capturePhotoWithSettings:delegate:"
    ) throws(AVCaptureException) -> PhotoPlan {
        func invalid(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text))
        }
        // Preparing may happen before the session runs, when the connection is not active yet.
        guard let connection = videoConnection, connection.isEnabled, connection.isActive || !consuming, let device, device.isConnected else {
            throw invalid("No active and enabled video connection")
        }
        let reused = consuming && !schedule.withLock { $0.use(settings.uniqueID) }
        if reused {
            throw invalid("Settings may not be re-used - create a new AVCapturePhotoSettings (uniqueID \(settings.uniqueID) was used)")
        }
        guard supportedFlashModes.contains(settings.flashMode) else {
            throw invalid("flashMode must be set to a value present in the supportedFlashModes array")
        }
        try validateAuxiliary(settings, invalid)
        guard settings.photoQualityPrioritization <= maxPhotoQualityPrioritization else {
            throw invalid("settings.photoQualityPrioritization must not be higher than self.maxPhotoQualityPrioritization")
        }
        if settings.isHighResolutionPhotoEnabledSetting, !highResolutionCaptureIsEnabled {
            throw invalid("settings.highResolutionPhotoEnabled may not be YES unless self.highResolutionCaptureEnabled is YES")
        }
        if let bracket = settings as? AVCapturePhotoBracketSettings {
            try validateBracket(bracket, device: device, invalid)
        }
        if let url = settings.livePhotoMovieFileURL {
            guard isLivePhotoCaptureEnabled else {
                throw invalid("settings.livePhotoMovieFileURL may not be set unless self.livePhotoCaptureEnabled is YES")
            }
            guard !isLivePhotoCaptureSuspended else {
                throw invalid("settings.livePhotoMovieFileURL may not be set while self.livePhotoCaptureSuspended is YES")
            }
            guard url.isFileURL else { throw invalid("settings.livePhotoMovieFileURL must be a file URL") }
            guard availableLivePhotoVideoCodecTypes.contains(settings.livePhotoVideoCodecType) else {
                throw invalid("Unsupported livePhotoVideoCodecType \(settings.livePhotoVideoCodecType.rawValue) - use availableLivePhotoVideoCodecTypes")
            }
            if settings.isRawOnly { throw invalid("Live Photo capture requires a processed photo") }
        }
        let limit = maxPhotoDimensions
        var size = settings.maxPhotoDimensions
        if size.width == 0 && size.height == 0 {
            // Apple: settings default to the smallest of the active format's
            // supportedMaxPhotoDimensions (a V4L2 camera's stream size: no format switch);
            // the deprecated high-resolution switch asks for the output's largest.
            let smallest = device.activeFormat.supportedMaxPhotoDimensions.first ?? limit
            let fits = smallest.width <= limit.width && smallest.height <= limit.height
            size = settings.isHighResolutionPhotoEnabledSetting || !fits ? limit : smallest
        }
        guard size.width <= limit.width, size.height <= limit.height, size.width > 0, size.height > 0 else {
            throw invalid("settings.maxPhotoDimensions \(size) exceed the output's maxPhotoDimensions \(limit)")
        }
        let raw = settings.rawPhotoPixelFormatType != 0
        if raw {
            guard availableRawPhotoPixelFormatTypes.contains(settings.rawPhotoPixelFormatType) else {
                throw invalid("Unsupported rawPhotoPixelFormatType - use availableRawPhotoPixelFormatTypes")
            }
            if let fileType = settings.rawFileType {
                guard availableRawPhotoFileTypes.contains(fileType) else {
                    throw invalid("Unsupported rawFileType \(fileType.rawValue) - use availableRawPhotoFileTypes")
                }
                guard supportedRawPhotoPixelFormatTypes(for: fileType).contains(settings.rawPhotoPixelFormatType) else {
                    throw invalid("Unsupported rawPhotoPixelFormatType for rawFileType \(fileType.rawValue) - use supportedRawPhotoPixelFormatTypesForFileType:")
                }
            }
            if Self.isBayerRAWPixelFormat(settings.rawPhotoPixelFormatType) {
                try validateBayer(settings, device: device, connection: connection, invalid)
            }
        }
        var pixelFormat = PixelFormat.yuv420BiPlanarFullRange
        var codec: AVVideoCodecType?
        if settings.isRawOnly {
            // Nothing processed: the still is rendered only for its mosaic.
        } else if let requested = settings.pixelFormat {
            guard availablePhotoPixelFormatTypes.contains(requested), let format = PixelFormat(rawValue: requested) else {
                throw invalid("Unsupported pixel format - use availablePhotoPixelFormatTypes")
            }
            pixelFormat = format
        } else if let requested = settings.codec {
            guard availablePhotoCodecTypes.contains(requested) else {
                throw invalid("Unsupported codec \(requested.rawValue) - use availablePhotoCodecTypes")
            }
            codec = requested
        }
        if let fileType = settings.processedFileType {
            guard availablePhotoFileTypes.contains(fileType) else {
                throw invalid("Unsupported processedFileType \(fileType.rawValue) - use availablePhotoFileTypes")
            }
            if !settings.isRawOnly, settings.pixelFormat != nil, !supportedPhotoPixelFormatTypes(for: fileType).contains(pixelFormat.rawValue) {
                throw invalid("Unsupported pixel format for processedFileType \(fileType.rawValue) - use supportedPhotoPixelFormatTypesForFileType:")
            }
            if let codec, !supportedPhotoCodecTypes(for: fileType).contains(codec) {
                throw invalid("Unsupported codec \(codec.rawValue) for processedFileType \(fileType.rawValue) - use supportedPhotoCodecTypesForFileType:")
            }
        }
        var thumbnail: PhotoPlan.Thumbnail?
        if let format = settings.embeddedThumbnailPhotoFormat {
            guard let thumbnailCodec = AVCapturePhotoSettings.codec(in: format),
                settings.availableEmbeddedThumbnailPhotoCodecTypes.contains(thumbnailCodec)
            else {
                throw invalid("embeddedThumbnailPhotoFormat must contain an AVVideoCodecKey present in availableEmbeddedThumbnailPhotoCodecTypes")
            }
            let requested = try Self.requestedSize(format, AVVideoWidthKey, AVVideoHeightKey, "embeddedThumbnailPhotoFormat", invalid)
            thumbnail = PhotoPlan.Thumbnail(
                codec: thumbnailCodec,
                size: PhotoDerivatives.size(photo: size, requested: requested, defaultLongSide: PhotoDerivatives.thumbnailLongSide))
        }
        var preview: PhotoPlan.Preview?
        if let format = settings.previewPhotoFormat {
            guard let type = format[kCVPixelBufferPixelFormatTypeKey].flatMap(integer).map({ OSType(truncatingIfNeeded: $0) }),
                settings.availablePreviewPhotoPixelFormatTypes.contains(type), let previewFormat = PixelFormat(rawValue: type)
            else {
                throw invalid("previewPhotoFormat must contain a kCVPixelBufferPixelFormatTypeKey present in availablePreviewPhotoPixelFormatTypes")
            }
            let requested = try Self.requestedSize(format, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey, "previewPhotoFormat", invalid)
            preview = PhotoPlan.Preview(
                format: previewFormat,
                size: PhotoDerivatives.size(photo: size, requested: requested, defaultLongSide: PhotoDerivatives.previewLongSide))
        }
        return PhotoPlan(
            device: device, connection: connection, width: Int(size.width), height: Int(size.height), pixelFormat: pixelFormat,
            codec: codec, flashMode: settings.flashMode, thumbnail: thumbnail, preview: preview, raw: raw,
            processed: !settings.isRawOnly, bracket: (settings as? AVCapturePhotoBracketSettings)?.bracketedSettings ?? [])
    }

    /// A format's width and height keys: both or neither, else Apple's exception.
    private static func requestedSize(
        _ format: [String: Any], _ widthKey: String, _ heightKey: String, _ name: String, _ invalid: (String) -> AVCaptureException
    ) throws(AVCaptureException) -> (width: Int, height: Int)? {
        switch (format[widthKey], format[heightKey]) {
        case (nil, nil): return nil
        case (let width?, let height?):
            guard let w = integer(width), let h = integer(height), w > 0, h > 0 else {
                throw invalid("\(name) width and height must be positive numbers")
            }
            return (w, h)
        default: throw invalid("\(name) must specify both a width and a height, or neither")
        }
    }

    /// Apple's Bayer RAW rules (AVCapturePhotoOutput.h, capturePhotoWithSettings:delegate:):
    /// "photoQualityPrioritization must be set to AVCapturePhotoQualityPrioritizationSpeed
    /// (deprecated autoStillImageStabilizationEnabled must be set to NO)", and no zoom: the
    /// device's videoZoomFactor and the connection's videoScaleAndCropFactor must be 1.0.
    private func validateBayer(
        _ settings: AVCapturePhotoSettings, device: AVCaptureDevice, connection: AVCaptureConnection,
        _ invalid: (String) -> AVCaptureException
    ) throws(AVCaptureException) {
        guard settings.photoQualityPrioritization == .speed else {
            throw invalid("When specifying Bayer raw capture, settings.photoQualityPrioritization must be set to AVCapturePhotoQualityPrioritizationSpeed")
        }
        guard settings.auxiliary.autoStillImageStabilization != true else {
            throw invalid("When specifying Bayer raw capture, settings.autoStillImageStabilizationEnabled must be set to NO")
        }
        guard device.videoZoomFactor == 1 else {
            throw invalid("When specifying Bayer raw capture, the videoZoomFactor of the video device must be set to 1.0")
        }
        guard connection.videoScaleAndCropFactor == 1 else {
            throw invalid("When specifying Bayer raw capture, the videoScaleAndCropFactor of the photo output's video connection must be set to 1.0")
        }
    }

    /// Apple's bracketed capture rules: at most `maxBracketedCapturePhotoCount` exposures;
    /// manual ISO and duration within the active format's ranges, auto-exposure biases within
    /// the device's (the "current" sentinels always pass); lens stabilization only where
    /// supported; and none of what bracket settings do not support (auto still image
    /// stabilization, Live Photo movie metadata; flash and the movie URL raise when set).
    private func validateBracket(
        _ bracket: AVCapturePhotoBracketSettings, device: AVCaptureDevice, _ invalid: (String) -> AVCaptureException
    ) throws(AVCaptureException) {
        let count = bracket.bracketedSettings.count, limit = maxBracketedCapturePhotoCount
        guard count <= limit else {
            throw invalid("bracketedSettings.count (\(count)) must be <= maxBracketedCapturePhotoCount (\(limit))")
        }
        if bracket.isLensStabilizationEnabled && !isLensStabilizationDuringBracketedCaptureSupported {
            throw invalid("settings.lensStabilizationEnabled may not be YES unless self.lensStabilizationDuringBracketedCaptureSupported is YES")
        }
        if bracket.auxiliary.autoStillImageStabilization == true {
            throw invalid("AVCapturePhotoBracketSettings do not support autoStillImageStabilizationEnabled")
        }
        if !bracket.livePhotoMovieMetadata.isEmpty {
            throw invalid("AVCapturePhotoBracketSettings do not support livePhotoMovieMetadata")
        }
        let format = device.activeFormat
        for entry in bracket.bracketedSettings {
            if let manual = entry as? AVCaptureManualExposureBracketedStillImageSettings {
                if manual.iso != AVCaptureDevice.currentISO, !(format.minISO...format.maxISO).contains(manual.iso) {
                    throw invalid("For manual exposure brackets, ISO value (\(manual.iso)) must be within the source device activeFormat's minISO (\(format.minISO)) and maxISO (\(format.maxISO)) values")
                }
                if manual.exposureDuration.isValid,
                    manual.exposureDuration < format.minExposureDuration || manual.exposureDuration > format.maxExposureDuration
                {
                    throw invalid("For manual exposure brackets, exposureDuration value (\(manual.exposureDuration.seconds) s) must be within the source device activeFormat's minExposureDuration and maxExposureDuration values")
                }
            } else if let auto = entry as? AVCaptureAutoExposureBracketedStillImageSettings {
                let bias = auto.exposureTargetBias
                if bias != AVCaptureDevice.currentExposureTargetBias, !(device.minExposureTargetBias...device.maxExposureTargetBias).contains(bias) {
                    throw invalid("For auto exposure brackets, exposureTargetBias value (\(bias)) must be within the source device's minExposureTargetBias (\(device.minExposureTargetBias)) and maxExposureTargetBias (\(device.maxExposureTargetBias)) values")
                }
            }
        }
    }
}
