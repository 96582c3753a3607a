import Foundation

extension AVCaptureDevice {
    /// One way a device can stream: size, pixel format, frame rates, ISO and exposure ranges.
    open class Format: NSObject, @unchecked Sendable {
        package let spec: DeviceFormatSpec
        /// The index of the format in its device's `formats`.
        package let index: Int

        /// The media type, subtype (pixel format) and dimensions.
        public let formatDescription: CMFormatDescription
        /// The frame-rate ranges, in the order the device lists them.
        public let videoSupportedFrameRateRanges: [AVFrameRateRange]

        package init(spec: DeviceFormatSpec, index: Int) {
            self.spec = spec
            self.index = index
            formatDescription = CMFormatDescription(
                videoFormat: spec.mediaSubType, width: spec.width, height: spec.height)
            videoSupportedFrameRateRanges = spec.frameRateRanges.map(AVFrameRateRange.init)
        }

        /// A microphone's format: an audio format description; every video property is
        /// zero or empty, as for an audio format on Apple platforms.
        package init(audio: CMAudioFormatDescription, index: Int) {
            spec = DeviceFormatSpec(
                width: 0, height: 0, frameRateRanges: [], minISO: 0, maxISO: 0, minExposureDuration: 0, maxExposureDuration: 0,
                fieldOfView: 0, maxZoomFactor: 1, colorSpaces: [], mediaSubType: audio.mediaSubTypeCode)
            self.index = index
            formatDescription = audio
            videoSupportedFrameRateRanges = []
        }

        /// The media type: video for cameras, audio for microphones.
        public var mediaType: AVMediaType { formatDescription.mediaType == .audio ? .audio : .video }
        /// The lowest ISO.
        public var minISO: Float { spec.minISO }
        /// The highest ISO.
        public var maxISO: Float { spec.maxISO }
        /// The shortest exposure.
        public var minExposureDuration: CMTime { CMTime(seconds: spec.minExposureDuration, preferredTimescale: 1_000_000_000) }
        /// The longest exposure.
        public var maxExposureDuration: CMTime { CMTime(seconds: spec.maxExposureDuration, preferredTimescale: 1_000_000_000) }
        /// Horizontal field of view in degrees.
        public var videoFieldOfView: Float { spec.fieldOfView }
        /// The largest zoom factor.
        public var videoMaxZoomFactor: CGFloat { CGFloat(spec.maxZoomFactor) }
        /// Whether the sensor bins pixels in this format (high frame rates).
        public var isVideoBinned: Bool { spec.isBinned }
        /// Whether video HDR can be enabled.
        public var isVideoHDRSupported: Bool { spec.isHDRSupported }
        /// Colour spaces, narrow to wide.
        public var supportedColorSpaces: [AVCaptureColorSpace] { spec.colorSpaces.compactMap(AVCaptureColorSpace.init) }
        /// Photo sizes the format supports.
        public var supportedMaxPhotoDimensions: [CMVideoDimensions] {
            [CMVideoDimensions(width: Int32(spec.maxPhotoWidth), height: Int32(spec.maxPhotoHeight))]
        }
        /// Whether the highest photo quality is available.
        public var isHighestPhotoQualitySupported: Bool { !spec.isBinned }
        /// Whether high photo quality is available (every format but the binned ones).
        public var isHighPhotoQualitySupported: Bool { !spec.isBinned }
        /// The largest still (deprecated on iOS 16): the last of `supportedMaxPhotoDimensions`.
        @available(*, deprecated, message: "Use supportedMaxPhotoDimensions instead.")
        public var highResolutionStillImageDimensions: CMVideoDimensions {
            supportedMaxPhotoDimensions.last ?? formatDescription.dimensions
        }
        /// The field of view after geometric distortion correction: the same as
        /// `videoFieldOfView`, as the simulated lenses are distortion-free.
        public var geometricDistortionCorrectedVideoFieldOfView: Float { spec.fieldOfView }
        /// The zoom factor above which frames are upscaled: the sensor's width over the
        /// format's (a binned format reads every binned pixel, so 1).
        public var videoZoomFactorUpscaleThreshold: CGFloat {
            spec.isBinned ? 1 : max(1, CGFloat(spec.maxPhotoWidth) / CGFloat(spec.width))
        }
        /// Zoom factors with a second native resolution (a sensor crop mode): none here.
        public var secondaryNativeResolutionZoomFactors: [CGFloat] { [] }
        /// Whether the format can stabilise video with `videoStabilizationMode`: `.off`
        /// always; `.standard`, `.previewOptimized` and `.auto` on the simulated cameras'
        /// formats; the cinematic modes on those up to 60 fps. V4L2 cameras: `.off` only.
        public func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
            switch videoStabilizationMode {
            case .off: true
            case .auto: !spec.stabilizationModes.isEmpty
            default: spec.stabilizationModes.contains(videoStabilizationMode.rawValue)
            }
        }
        /// Depth formats: none (no simulated camera measures depth).
        public var supportedDepthDataFormats: [AVCaptureDevice.Format] { [] }
        /// Whether the portrait effect can run: no (as on a camera without it).
        public var isPortraitEffectSupported: Bool { false }
        /// Whether Center Stage can run: no.
        public var isCenterStageSupported: Bool { false }
        /// Whether Studio Light can run: no.
        public var isStudioLightSupported: Bool { false }
        /// Whether global tone mapping can be turned on: no.
        public var isGlobalToneMappingSupported: Bool { false }
        /// Whether an `AVCaptureMultiCamSession` can run the format: up to 1920x1440, as
        /// phones offer multi-cam at video sizes, not 4K or photo sizes.
        public var isMultiCamSupported: Bool {
            let size = formatDescription.dimensions
            return Int(size.width) * Int(size.height) <= 1920 * 1440
        }
        /// The focus system (the simulated cameras detect contrast; fixed-focus lenses have none).
        public var autoFocusSystem: AutoFocusSystem { AutoFocusSystem(rawValue: spec.autoFocusSystem) ?? .none }

        /// How a format focuses.
        public enum AutoFocusSystem: Int, Sendable {
            case none = 0
            case contrastDetection = 1
            case phaseDetection = 2
        }

        /// The highest frame rate over all ranges.
        package var maxFrameRate: Double { spec.maxFrameRate }

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
