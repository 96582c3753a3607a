// AVDepthData.h, spelled as depth-processing code (a portrait photo's depth, a synchronised
// depth output's map) spells it.
import AVFoundation
import Foundation
import Testing

/// Touches the depth data declarations as depth code does; called by the test below.
func spellAVDepthData(_ depth: AVDepthData) throws -> (AVDepthData, [AnyHashable: Any]?, NSString?) {
    var converted = depth
    if depth.depthDataType != kCVPixelFormatType_DisparityFloat32,
        depth.availableDepthDataTypes.contains(NSNumber(value: kCVPixelFormatType_DisparityFloat32))
    {
        converted = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
    }
    converted = converted.applyingExifOrientation(.right)
    if let calibration = converted.cameraCalibrationData { _ = (calibration.pixelSize, calibration.lensDistortionCenter) }
    var auxiliaryType: NSString?
    let dictionary = converted.dictionaryRepresentation(forAuxiliaryDataType: &auxiliaryType)
    converted = try converted.replacingDepthDataMap(with: converted.depthDataMap)
    _ = (converted.depthDataQuality == .high, converted.depthDataAccuracy == .absolute, converted.isDepthDataFiltered)
    return (converted, dictionary, auxiliaryType)
}

/// The mattes' auxiliary-data forms, as photo editors spell them; compiled, never called.
func spellMattes(_ photo: AVCapturePhoto) throws {
    if let matte = photo.portraitEffectsMatte?.applyingExifOrientation(.right) {
        var type: NSString?
        if let dictionary = matte.dictionaryRepresentation(forAuxiliaryDataType: &type) {
            _ = try AVPortraitEffectsMatte(fromDictionaryRepresentation: dictionary)
        }
    }
    if let hair = photo.semanticSegmentationMatte(for: .hair)?.applyingExifOrientation(.up), let dictionary = hair.dictionaryRepresentation(forAuxiliaryDataType: nil) {
        _ = try AVSemanticSegmentationMatte(fromImageSourceAuxiliaryDataType: kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte, dictionaryRepresentation: dictionary)
    }
}

@Suite("AVDepthData spelling")
struct AVDepthDataSpelling {
    @Test("a depth map read from its auxiliary-data dictionary converts, turns and writes back with ImageIO's keys")
    func depthCodeRuns() throws {
        // 3x2 depth in metres, rows packed.
        let depths: [Float] = [1, 2, 4, 0.5, 0.25, 8]
        let data = depths.withUnsafeBytes { Data($0) }
        let description: [AnyHashable: Any] = [
            "Width": 3, "Height": 2, "BytesPerRow": 12, "PixelFormat": NSNumber(value: kCVPixelFormatType_DepthFloat32),
        ]
        let depth = try AVDepthData(fromDictionaryRepresentation: [
            kCGImageAuxiliaryDataInfoData as String: data, kCGImageAuxiliaryDataInfoDataDescription as String: description,
        ])
        let (converted, dictionary, type) = try spellAVDepthData(depth)
        #expect(converted.depthDataType == kCVPixelFormatType_DisparityFloat32)
        #expect(type.map { $0 as String } == kCGImageAuxiliaryDataTypeDisparity as String)
        // Turned a quarter clockwise: 2 wide, 3 high.
        #expect(CVPixelBufferGetWidth(converted.depthDataMap) == 2 && CVPixelBufferGetHeight(converted.depthDataMap) == 3)
        let written = try #require(dictionary?[kCGImageAuxiliaryDataInfoDataDescription as String] as? [AnyHashable: Any])
        #expect((written["PixelFormat"] as? NSNumber)?.uint32Value == kCVPixelFormatType_DisparityFloat32)
        #expect(converted.cameraCalibrationData == nil)
    }
}
