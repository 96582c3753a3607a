import Foundation

/// A depth or disparity map (AVDepthData.h). Declared for code that handles depth; never
/// made here: no simulated or V4L2 camera measures depth (every format's
/// `supportedDepthDataFormats` is empty), so no output delivers one.
open class AVDepthData: NSObject, @unchecked Sendable {
    /// How accurate the values are.
    public enum Accuracy: Int, Sendable {
        case relative = 0
        case absolute = 1
    }

    /// How good the map is.
    public enum Quality: Int, Sendable {
        case low = 0
        case high = 1
    }

    /// The pixel format of the map, e.g. `kCVPixelFormatType_DepthFloat32`.
    public let depthDataType: OSType
    /// The map.
    public let depthDataMap: CVPixelBuffer
    /// Whether holes in the map were filled.
    public let isDepthDataFiltered: Bool
    /// Whether values are metric or only relative.
    public let depthDataAccuracy: Accuracy
    /// The map's quality.
    public let depthDataQuality: Quality

    package init(depthDataType: OSType, depthDataMap: CVPixelBuffer, filtered: Bool, accuracy: Accuracy, quality: Quality) {
        self.depthDataType = depthDataType
        self.depthDataMap = depthDataMap
        isDepthDataFiltered = filtered
        depthDataAccuracy = accuracy
        depthDataQuality = quality
    }

    /// The depth formats the map converts to: just its own.
    open var availableDepthDataTypes: [NSNumber] { [NSNumber(value: depthDataType)] }
}
