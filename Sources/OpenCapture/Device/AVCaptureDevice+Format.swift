import Foundation

extension AVCaptureDevice {
    /// One way a device can stream: size, pixel format, frame rates, ISO and exposure ranges.
    open class Format: NSObject, @unchecked Sendable {
        package let spec: DeviceFormatSpec
        /// The index of the format in its device's `formats`.
        package let index: Int

        private let storedFormatDescription: CMFormatDescription
        private let storedFrameRateRanges: [AVFrameRateRange]

        /// The media type, subtype (pixel format) and dimensions.
        open var formatDescription: CMFormatDescription { storedFormatDescription }
        /// The frame-rate ranges, in the order the device lists them.
        open var videoSupportedFrameRateRanges: [AVFrameRateRange] { storedFrameRateRanges }

        package init(spec: DeviceFormatSpec, index: Int) {
            self.spec = spec
            self.index = index
            storedFormatDescription = CMFormatDescription(
                videoFormat: spec.mediaSubType, width: spec.width, height: spec.height)
            storedFrameRateRanges = spec.frameRateRanges.map(AVFrameRateRange.init)
        }

        /// A microphone's format: an audio format description; every video property is
        /// zero or empty, as for an audio format on Apple platforms.
        package init(audio: CMAudioFormatDescription, index: Int) {
            spec = DeviceFormatSpec(
                width: 0, height: 0, frameRateRanges: [], minISO: 0, maxISO: 0, minExposureDuration: 0, maxExposureDuration: 0,
                fieldOfView: 0, maxZoomFactor: 1, colorSpaces: [], mediaSubType: audio.mediaSubTypeCode)
            self.index = index
            storedFormatDescription = audio
            storedFrameRateRanges = []
        }

        /// The media type: video for cameras, audio for microphones.
        open var mediaType: AVMediaType { formatDescription.mediaType == .audio ? .audio : .video }
        /// The lowest ISO.
        open var minISO: Float { spec.minISO }
        /// The highest ISO.
        open var maxISO: Float { spec.maxISO }
        /// The shortest exposure.
        open var minExposureDuration: CMTime { CMTime(seconds: spec.minExposureDuration, preferredTimescale: 1_000_000_000) }
        /// The longest exposure.
        open var maxExposureDuration: CMTime { CMTime(seconds: spec.maxExposureDuration, preferredTimescale: 1_000_000_000) }
        /// Horizontal field of view in degrees.
        open var videoFieldOfView: Float { spec.fieldOfView }
        /// The largest zoom factor.
        open var videoMaxZoomFactor: CGFloat { CGFloat(spec.maxZoomFactor) }
        /// Whether the sensor bins pixels in this format (high frame rates).
        open var isVideoBinned: Bool { spec.isBinned }
        /// Whether video HDR can be enabled.
        open var isVideoHDRSupported: Bool { spec.isHDRSupported }
        /// Colour spaces, narrow to wide.
        open var supportedColorSpaces: [AVCaptureColorSpace] { spec.colorSpaces.compactMap(AVCaptureColorSpace.init) }
        /// Photo sizes the format supports, smallest first: its own photo size, then on a
        /// V4L2 camera the device's larger frame sizes (a still switches to that format and back).
        open var supportedMaxPhotoDimensions: [CMVideoDimensions] {
            [CMVideoDimensions(width: Int32(spec.maxPhotoWidth), height: Int32(spec.maxPhotoHeight))]
                + spec.largerPhotoSizes.map { CMVideoDimensions(width: Int32($0.width), height: Int32($0.height)) }
        }
        /// Whether the highest photo quality is available.
        open var isHighestPhotoQualitySupported: Bool { !spec.isBinned }
        /// Whether high photo quality is available (every format but the binned ones).
        open var isHighPhotoQualitySupported: Bool { !spec.isBinned }
        /// The largest still (deprecated on iOS 16): the last of `supportedMaxPhotoDimensions`.
        @available(*, deprecated, message: "Use supportedMaxPhotoDimensions instead.")
        open var highResolutionStillImageDimensions: CMVideoDimensions {
            supportedMaxPhotoDimensions.last ?? formatDescription.dimensions
        }
        /// The field of view after geometric distortion correction: the same as
        /// `videoFieldOfView`, as the simulated lenses are distortion-free.
        open var geometricDistortionCorrectedVideoFieldOfView: Float { spec.fieldOfView }
        /// The zoom factor above which frames are upscaled: the sensor's width over the
        /// format's (a binned format reads every binned pixel, so 1).
        open var videoZoomFactorUpscaleThreshold: CGFloat {
            spec.isBinned ? 1 : max(1, CGFloat(spec.maxPhotoWidth) / CGFloat(spec.width))
        }
        /// Zoom factors with a second native resolution (a sensor crop mode): none here.
        open var secondaryNativeResolutionZoomFactors: [CGFloat] { [] }
        /// Whether the format can stabilise video with `videoStabilizationMode`: `.off`
        /// always; `.standard`, `.previewOptimized` and `.auto` on the simulated cameras'
        /// formats; the cinematic modes on those up to 60 fps. V4L2 cameras: `.off` only.
        open func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
            switch videoStabilizationMode {
            case .off: true
            case .auto: !spec.stabilizationModes.isEmpty
            default: spec.stabilizationModes.contains(videoStabilizationMode.rawValue)
            }
        }
        /// Depth formats: none (no simulated camera measures depth).
        open var supportedDepthDataFormats: [AVCaptureDevice.Format] { [] }
        /// Whether the portrait effect can run: no (as on a camera without it).
        open var isPortraitEffectSupported: Bool { false }
        /// Whether Center Stage can run: no.
        open var isCenterStageSupported: Bool { false }
        /// Whether Studio Light can run: no.
        open var isStudioLightSupported: Bool { false }
        /// Whether global tone mapping can be turned on: no.
        open var isGlobalToneMappingSupported: Bool { false }
        /// Whether an `AVCaptureMultiCamSession` can run the format: up to 1920x1440, as
        /// phones offer multi-cam at video sizes, not 4K or photo sizes.
        open var isMultiCamSupported: Bool {
            let size = formatDescription.dimensions
            return Int(size.width) * Int(size.height) <= 1920 * 1440
        }
        /// The focus system (the simulated cameras detect contrast; fixed-focus lenses have none).
        open var autoFocusSystem: AutoFocusSystem { AutoFocusSystem(rawValue: spec.autoFocusSystem) ?? .none }

        /// How a format focuses.
        public enum AutoFocusSystem: Int, Sendable {
            case none = 0
            case contrastDetection = 1
            case phaseDetection = 2
        }

        /// The highest frame rate over all ranges.
        package var maxFrameRate: Double { spec.maxFrameRate }

        // Members Apple's header declares on the format and the extension files implement
        // (open here: Swift cannot override what an extension declares).
        // MARK: Implemented in AVCaptureDevice+CameraEffects

        /// The zoom range the system recommends for a zoom slider (iOS 18): nil, Apple's answer
        /// when no recommendation is available (no system zoom control on Linux).
        open var systemRecommendedVideoZoomRange: ClosedRange<CGFloat>? { systemRecommendedVideoZoomRangeBacking }

        /// The exposure-bias range the system recommends for a slider (iOS 18): nil, likewise.
        open var systemRecommendedExposureBiasRange: ClosedRange<Float>? { systemRecommendedExposureBiasRangeBacking }

        /// Zoom ranges with depth delivery (17.2): none (no depth).
        open var supportedVideoZoomRangesForDepthDataDelivery: [ClosedRange<CGFloat>] { supportedVideoZoomRangesForDepthDataDeliveryBacking }

        /// Whether zoom outside those ranges is allowed while delivering depth (17.2): no depth, false.
        open var zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupported: Bool { zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupportedBacking }

        /// Zoom factors with depth delivery (iOS 16, deprecated in 17.2): none (no depth formats).
        @available(*, deprecated, renamed: "supportedVideoZoomRangesForDepthDataDelivery")
        open var supportedVideoZoomFactorsForDepthDataDelivery: [CGFloat] { supportedVideoZoomFactorsForDepthDataDeliveryBacking }

        /// Whether this depth format can deliver a portrait effects matte with photos (iOS 12):
        /// no (no format here is a depth format).
        open var isPortraitEffectsMatteStillImageDeliverySupported: Bool { isPortraitEffectsMatteStillImageDeliverySupportedBacking }

        /// Whether `isAutoVideoFrameRateEnabled` can be turned on: no.
        open var isAutoVideoFrameRateSupported: Bool { isAutoVideoFrameRateSupportedBacking }

        /// Output classes the format cannot feed: none (every output takes every format).
        open var unsupportedCaptureOutputClasses: [AnyClass] { unsupportedCaptureOutputClassesBacking }

        /// Frame rates with the Portrait effect: nil (unsupported).
        open var videoFrameRateRangeForPortraitEffect: AVFrameRateRange? { videoFrameRateRangeForPortraitEffectBacking }

        /// Zoom range under Center Stage: unsupported, so 1 to `videoMaxZoomFactor`, the
        /// values Apple's header gives for a format without Center Stage.
        open var videoMinZoomFactorForCenterStage: CGFloat { videoMinZoomFactorForCenterStageBacking }

        open var videoMaxZoomFactorForCenterStage: CGFloat { videoMaxZoomFactorForCenterStageBacking }

        /// Frame rates with Center Stage: nil (unsupported).
        open var videoFrameRateRangeForCenterStage: AVFrameRateRange? { videoFrameRateRangeForCenterStageBacking }

        /// Frame rates with Studio Light: nil (unsupported).
        open var videoFrameRateRangeForStudioLight: AVFrameRateRange? { videoFrameRateRangeForStudioLightBacking }

        /// Whether spatial (stereo) video can be recorded: no simulated or V4L2 camera pair does.
        open var isSpatialVideoCaptureSupported: Bool { isSpatialVideoCaptureSupportedBacking }

        /// Whether background replacement can run: no.
        open var isBackgroundReplacementSupported: Bool { isBackgroundReplacementSupportedBacking }

        /// Frame rates with background replacement: nil (unsupported).
        open var videoFrameRateRangeForBackgroundReplacement: AVFrameRateRange? { videoFrameRateRangeForBackgroundReplacementBacking }

        /// Whether the format can record Cinematic video (iOS 26): no format here can.
        open var isCinematicVideoCaptureSupported: Bool { isCinematicVideoCaptureSupportedBacking }

        /// Zoom range with Cinematic video: 1 to 1, the header's answer for a format without it.
        open var videoMinZoomFactorForCinematicVideo: CGFloat { videoMinZoomFactorForCinematicVideoBacking }

        open var videoMaxZoomFactorForCinematicVideo: CGFloat { videoMaxZoomFactorForCinematicVideoBacking }

        /// Frame rates with Cinematic video: nil (unsupported).
        open var videoFrameRateRangeForCinematicVideo: AVFrameRateRange? { videoFrameRateRangeForCinematicVideoBacking }

        /// Cinematic video's simulated apertures (f-numbers): 0, as for a format without them.
        open var defaultSimulatedAperture: Float { defaultSimulatedApertureBacking }

        open var minSimulatedAperture: Float { minSimulatedApertureBacking }

        open var maxSimulatedAperture: Float { maxSimulatedApertureBacking }

        /// Whether any stabilization besides `.off` is supported (deprecated in iOS 8).
        @available(*, deprecated, message: "Use isVideoStabilizationModeSupported(_:)")
        open var isVideoStabilizationSupported: Bool { isVideoStabilizationSupportedBacking }

        // MARK: Implemented in AVCaptureDevice+DepthData

        /// The smallest zoom factor with depth delivery (iOS 11, deprecated in 16): 1, no
        /// depth here limits zoom.
        @available(*, deprecated, renamed: "supportedVideoZoomFactorsForDepthDataDelivery")
        open var videoMinZoomFactorForDepthDataDelivery: CGFloat { videoMinZoomFactorForDepthDataDeliveryBacking }

        /// The largest zoom factor with depth delivery (iOS 11, deprecated in 16):
        /// `videoMaxZoomFactor`, as no depth delivery limits zoom here.
        @available(*, deprecated, renamed: "supportedVideoZoomFactorsForDepthDataDelivery")
        open var videoMaxZoomFactorForDepthDataDelivery: CGFloat { videoMaxZoomFactorForDepthDataDeliveryBacking }

        // MARK: Implemented in AVCaptureDevice+Reactions

        /// Whether the format supports reaction effects: false (no effect renderer).
        open var reactionEffectsSupported: Bool { reactionEffectsSupportedBacking }

        /// The frame-rate range while reactions render: nil, since none can.
        open var videoFrameRateRangeForReactionEffectsInProgress: AVFrameRateRange? { videoFrameRateRangeForReactionEffectsInProgressBacking }

        open override var description: String {
            if let asbd = formatDescription.audioStreamBasicDescription {
                return "<AVCaptureDeviceFormat: 'soun'/'\(fourCCString(asbd.mFormatID))' SR=\(Int(asbd.mSampleRate)),FF=\(asbd.mFormatFlags),BPP=\(asbd.mBytesPerPacket),FPP=\(asbd.mFramesPerPacket),BPF=\(asbd.mBytesPerFrame),CH=\(asbd.mChannelsPerFrame),BPC=\(asbd.mBitsPerChannel)>"
            }
            let dims = formatDescription.dimensions
            let rates = videoSupportedFrameRateRanges.map { String(format: "%.0f-%.0f", $0.minFrameRate, $0.maxFrameRate) }
            return "<AVCaptureDeviceFormat: '\(fourCCString(formatDescription.mediaSubTypeCode))' \(dims.width)x\(dims.height), { \(rates.joined(separator: ", ")) fps}, fov:\(String(format: "%.3f", spec.fieldOfView)), binned: \(spec.isBinned ? 1 : 0), max zoom:\(spec.maxZoomFactor), ISO:\(spec.minISO)-\(spec.maxISO)>"
        }
    }
}
