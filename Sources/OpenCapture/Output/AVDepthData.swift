import Foundation

/// A depth or disparity map (AVDepthData.h): one float per pixel, depth in metres
/// (`kCVPixelFormatType_DepthFloat16/32`) or disparity in 1/metres
/// (`kCVPixelFormatType_DisparityFloat16/32`).
///
/// No simulated or V4L2 camera measures depth (every format's `supportedDepthDataFormats` is
/// empty), so no output delivers one; a map read from an image's auxiliary data
/// (`init(fromDictionaryRepresentation:)`) converts, turns and is written back as on iOS.
/// Derived maps (`converting`, `applyingExifOrientation`, `replacingDepthDataMap`) are
/// `AVDepthData` objects; calling them on a subclass of it traps, as the result is not one.
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
    /// The camera's calibration: nil, as no camera here delivers calibration data
    /// (`isCameraCalibrationDataDeliverySupported` is false).
    open var cameraCalibrationData: AVCameraCalibrationData? { nil }

    package init(depthDataType: OSType, depthDataMap: CVPixelBuffer, filtered: Bool, accuracy: Accuracy, quality: Quality) {
        self.storedDepthDataType = depthDataType
        self.storedDepthDataMap = depthDataMap
        storedIsDepthDataFiltered = filtered
        storedDepthDataAccuracy = accuracy
        storedDepthDataQuality = quality
    }

    /// A map from the dictionary `CGImageSourceCopyAuxiliaryDataInfoAtIndex` gives (and
    /// `dictionaryRepresentation(forAuxiliaryDataType:)` makes): the map's bytes under
    /// `kCGImageAuxiliaryDataInfoData` and its `Width`, `Height`, `BytesPerRow` and
    /// `PixelFormat` (a depth or disparity type) under `kCGImageAuxiliaryDataInfoDataDescription`.
    /// Without metadata the map counts as relative, unfiltered and of low quality.
    ///
    /// - Throws: `AVError.invalidSourceMedia` naming what is missing or inconsistent.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        let map = try AuxiliaryImage.map(
            from: imageSourceAuxDataInfoDictionary, what: "depth data", accepts: \.isDepth, formats: "a depth or disparity format")
        self.init(depthDataType: map.format.rawValue, depthDataMap: map, filtered: false, accuracy: .relative, quality: .low)
    }

    /// The types the map converts to: all four depth and disparity formats.
    open var availableDepthDataTypes: [NSNumber] {
        DepthMapConversion.types.map { NSNumber(value: $0.rawValue) }
    }

    /// The map converted to `depthDataType` (depth ↔ disparity is 1 / value; half ↔ single
    /// precision), its other properties kept.
    ///
    /// Raises `NSInvalidArgumentException` for a type not in `availableDepthDataTypes`.
    open func converting(toDepthDataType depthDataType: OSType) -> Self {
        guard let target = PixelFormat(rawValue: depthDataType), target.isDepth else {
            AVCaptureException(
                .invalidArgument,
                selectorReason("AVDepthData", "depthDataByConvertingToDepthDataType:", "Unsupported depthDataType '\(fourCCString(depthDataType))'")
            ).raise()
        }
        return derived(DepthMapConversion.convert(storedDepthDataMap, to: target))
    }

    /// The map with `depthDataMap` in its place, its other properties kept.
    ///
    /// - Throws: `AVError.unsupportedOutputSettings` unless the buffer is a depth or disparity format.
    open func replacingDepthDataMap(with pixelBuffer: CVPixelBuffer) throws -> Self {
        guard pixelBuffer.format.isDepth else {
            throw AVError(
                .unsupportedOutputSettings,
                "A depth data map must be kCVPixelFormatType_DepthFloat16/32 or kCVPixelFormatType_DisparityFloat16/32, not '\(pixelBuffer.format.fourCC)'")
        }
        return derived(pixelBuffer)
    }

    /// The map turned as an EXIF orientation (1…8) says: the image as it is to be shown.
    /// `applyingExifOrientation(_:)` (in AVFoundation, with ImageIO's orientation type) calls it.
    package func applyingOrientation(exif orientation: UInt32) -> Self {
        derived(AuxiliaryImage.orient(storedDepthDataMap, exif: orientation))
    }

    /// The map as an image's auxiliary data: `kCGImageAuxiliaryDataInfoData` (the rows as
    /// stored) and `kCGImageAuxiliaryDataInfoDataDescription` (size, row bytes, pixel format);
    /// `outAuxDataType` receives `kCGImageAuxiliaryDataTypeDepth` or `…Disparity`.
    open func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?) -> [AnyHashable: Any]? {
        outAuxDataType?.pointee = NSString(string: AuxiliaryImage.depthType(of: storedDepthDataMap.format))
        return AuxiliaryImage.dictionary(of: storedDepthDataMap)
    }

    /// A map of this one's kind (filtering, accuracy, quality) holding `map`.
    private func derived(_ map: CVPixelBuffer) -> Self {
        let made = AVDepthData(
            depthDataType: map.format.rawValue, depthDataMap: map, filtered: storedIsDepthDataFiltered, accuracy: storedDepthDataAccuracy,
            quality: storedDepthDataQuality)
        guard let result = made as? Self else { preconditionFailure("AVDepthData derives AVDepthData objects, not \(Self.self)") }
        return result
    }
}
