import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import OpenCapture

/// The mattes as an image's auxiliary data (AVPortraitEffectsMatte.h,
/// AVSemanticSegmentationMatte.h): read from and written to ImageIO's dictionaries, turned
/// by EXIF orientations.
@Suite("Portrait and segmentation mattes from auxiliary data")
struct MatteDictionaryTests {
    /// A 3x2 `OneComponent8` matte's dictionary, rows 4 bytes apart (1 2 3 / 4 5 6).
    static var dictionary: [AnyHashable: Any] {
        [
            ImageAuxiliaryData.infoData: Data([1, 2, 3, 0, 4, 5, 6, 0]),
            ImageAuxiliaryData.infoDataDescription: [
                "Width": 3, "Height": 2, "BytesPerRow": 4, "PixelFormat": NSNumber(value: kCVPixelFormatType_OneComponent8),
            ] as [AnyHashable: Any],
        ]
    }

    static func bytes(_ image: CVPixelBuffer) -> [UInt8] {
        withExtendedLifetime(image) {
            (0..<image.height).flatMap { y in (0..<image.width).map { (image.planeAddress(0) + y * image.bytesPerRow(0)).load(fromByteOffset: $0, as: UInt8.self) } }
        }
    }

    @Test("a portrait effects matte reads its dictionary, turns, and writes it back with its type")
    func portraitMatte() throws {
        let matte = try AVPortraitEffectsMatte(fromDictionaryRepresentation: Self.dictionary)
        #expect(matte.pixelFormatType == kCVPixelFormatType_OneComponent8 && Self.bytes(matte.mattingImage) == [1, 2, 3, 4, 5, 6])
        let turned = matte.applyingOrientation(exif: 6)  // a quarter turn clockwise
        #expect(turned.mattingImage.width == 2 && Self.bytes(turned.mattingImage) == [4, 1, 5, 2, 6, 3])
        var type: NSString?
        let written = try #require(turned.dictionaryRepresentation(forAuxiliaryDataType: &type))
        #expect(type.map { $0 as String } == ImageAuxiliaryData.typePortraitEffectsMatte)
        #expect(Self.bytes(try AVPortraitEffectsMatte(fromDictionaryRepresentation: written).mattingImage) == [4, 1, 5, 2, 6, 3])
    }

    @Test("a segmentation matte takes its type from ImageIO's auxiliary type and gives it back")
    func segmentationMatte() throws {
        let matte = try AVSemanticSegmentationMatte(
            fromImageSourceAuxiliaryDataType: NSString(string: ImageAuxiliaryData.typeSemanticSegmentationHairMatte), dictionaryRepresentation: Self.dictionary)
        #expect(matte.matteType == .hair && Self.bytes(matte.mattingImage) == [1, 2, 3, 4, 5, 6])
        #expect(Self.bytes(matte.applyingOrientation(exif: 2).mattingImage) == [3, 2, 1, 6, 5, 4])
        var type: NSString?
        _ = matte.dictionaryRepresentation(forAuxiliaryDataType: &type)
        #expect(type.map { $0 as String } == ImageAuxiliaryData.typeSemanticSegmentationHairMatte)
        #expect(throws: AVError.self) {
            try AVSemanticSegmentationMatte(fromImageSourceAuxiliaryDataType: NSString(string: ImageAuxiliaryData.typeDepth), dictionaryRepresentation: Self.dictionary)
        }
    }

    @Test("a matte dictionary of a depth format is refused with the reason")
    func depthIsNotAMatte() {
        var dictionary = Self.dictionary
        dictionary[ImageAuxiliaryData.infoDataDescription] = ["Width": 1, "Height": 1, "PixelFormat": NSNumber(value: kCVPixelFormatType_DepthFloat32)] as [AnyHashable: Any]
        do {
            _ = try AVPortraitEffectsMatte(fromDictionaryRepresentation: dictionary)
            Issue.record("a depth map was taken as a matte")
        } catch let error as AVError {
            #expect(error.code == .invalidSourceMedia && error.localizedDescription.contains("OneComponent8"), "\(error.localizedDescription)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
