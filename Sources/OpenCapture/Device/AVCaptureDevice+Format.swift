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

        /// The media type: always video for cameras.
        public var mediaType: AVMediaType { .video }
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
            let dims = formatDescription.dimensions
            let rates = videoSupportedFrameRateRanges.map { String(format: "%.0f-%.0f", $0.minFrameRate, $0.maxFrameRate) }
            return "<AVCaptureDeviceFormat: '\(fourCCString(formatDescription.mediaSubTypeCode))' \(dims.width)x\(dims.height), { \(rates.joined(separator: ", ")) fps}, fov:\(String(format: "%.3f", spec.fieldOfView)), binned: \(spec.isBinned ? 1 : 0), max zoom:\(spec.maxZoomFactor), ISO:\(spec.minISO)-\(spec.maxISO)>"
        }
    }
}
