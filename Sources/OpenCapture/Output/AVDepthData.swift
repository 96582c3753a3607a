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

    private let storedDepthDataType: OSType
    /// The pixel format of the map, e.g. `kCVPixelFormatType_DepthFloat32`.
    open var depthDataType: OSType { storedDepthDataType }
    private let storedDepthDataMap: CVPixelBuffer
    /// The map.
    open var depthDataMap: CVPixelBuffer { storedDepthDataMap }
    private let storedIsDepthDataFiltered: Bool
    /// Whether holes in the map were filled.
    open var isDepthDataFiltered: Bool { storedIsDepthDataFiltered }
    private let storedDepthDataAccuracy: Accuracy
    /// Whether values are metric or only relative.
    open var depthDataAccuracy: Accuracy { storedDepthDataAccuracy }
    private let storedDepthDataQuality: Quality
    /// The map's quality.
    open var depthDataQuality: Quality { storedDepthDataQuality }

    package init(depthDataType: OSType, depthDataMap: CVPixelBuffer, filtered: Bool, accuracy: Accuracy, quality: Quality) {
        self.storedDepthDataType = depthDataType
        self.storedDepthDataMap = depthDataMap
        storedIsDepthDataFiltered = filtered
        storedDepthDataAccuracy = accuracy
        storedDepthDataQuality = quality
    }

    /// The depth formats the map converts to: just its own.
    open var availableDepthDataTypes: [NSNumber] { [NSNumber(value: depthDataType)] }
}
