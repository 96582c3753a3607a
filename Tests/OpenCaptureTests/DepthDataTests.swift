import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import ImageOps
@testable import OpenCapture

/// AVDepthData.h's behaviour on maps read from an image's auxiliary data: conversion between
/// depth and disparity at both precisions, EXIF orientations, replacement, the dictionary both
/// ways and what each refuses.
@Suite("AVDepthData")
struct DepthDataTests {
    /// A `width`×`height` map of `format` holding `values` row by row.
    static func map(_ values: [Float], width: Int, height: Int, format: PixelFormat = .depthFloat32) -> CVBuffer {
        let buffer = CVBuffer(format: format, width: width, height: height)
        withExtendedLifetime(buffer) {
            for y in 0..<height {
                let row = buffer.planeAddress(0) + y * buffer.bytesPerRow(0)
                for x in 0..<width {
                    let value = values[y * width + x]
                    if format == .depthFloat16 || format == .disparityFloat16 {
                        row.storeBytes(of: Float16(value), toByteOffset: 2 * x, as: Float16.self)
                    } else {
                        row.storeBytes(of: value, toByteOffset: 4 * x, as: Float.self)
                    }
                }
            }
        }
        return buffer
    }

    /// The map's samples row by row, as floats.
    static func values(_ depth: AVDepthData) -> [Float] {
        let map = depth.depthDataMap
        let half = map.format == .depthFloat16 || map.format == .disparityFloat16
        return withExtendedLifetime(map) {
            (0..<map.height).flatMap { y in
                (0..<map.width).map { x in
                    let row = map.planeAddress(0) + y * map.bytesPerRow(0)
                    return half ? Float(row.load(fromByteOffset: 2 * x, as: Float16.self)) : row.load(fromByteOffset: 4 * x, as: Float.self)
                }
            }
        }
    }

    static func depth(_ values: [Float], width: Int = 3, height: Int = 2) -> AVDepthData {
        AVDepthData(
            depthDataType: kCVPixelFormatType_DepthFloat32, depthDataMap: map(values, width: width, height: height), filtered: true,
            accuracy: .absolute, quality: .high)
    }

    @Test("depth and disparity are each other's reciprocal at both precisions; the other properties are kept")
    func converting() {
        let depth = Self.depth([1, 2, 4, 0.5, 0.25, 0])
        #expect(depth.availableDepthDataTypes.map(\.uint32Value) == [
            kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DepthFloat32,
        ])
        let disparity = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        #expect(disparity.depthDataType == kCVPixelFormatType_DisparityFloat32)
        #expect(CVPixelBufferGetPixelFormatType(disparity.depthDataMap) == kCVPixelFormatType_DisparityFloat32)
        #expect(Self.values(disparity) == [1, 0.5, 0.25, 2, 4, .infinity])
        #expect(disparity.isDepthDataFiltered && disparity.depthDataAccuracy == .absolute && disparity.depthDataQuality == .high)
        // Half precision rounds (1/3 is not a half float); back to depth in single precision.
        let half = Self.depth([3, 1, 1, 1, 1, 1]).converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16)
        #expect(Self.values(half)[0] == Float(Float16(Float(1) / 3)))
        let back = half.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        #expect(abs(Self.values(back)[0] - 3) < 0.002 && Self.values(back)[1] == 1)
        #expect(depth.cameraCalibrationData == nil)
    }

    @Test("converting to a type not in availableDepthDataTypes raises NSInvalidArgumentException")
    func convertingToAPictureFormatRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = DepthDataTests.depth([1, 2, 3, 4, 5, 6]).converting(toDepthDataType: kCVPixelFormatType_32BGRA)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            text.contains("'NSInvalidArgumentException'")
                && text.contains("*** -[AVDepthData depthDataByConvertingToDepthDataType:] Unsupported depthDataType 'BGRA'"), "\(text)")
    }

    @Test("each EXIF orientation turns the map as it turns a picture", arguments: [
        (UInt32(1), 3, 2, [Float(1), 2, 3, 4, 5, 6]),
        (2, 3, 2, [3, 2, 1, 6, 5, 4]),
        (3, 3, 2, [6, 5, 4, 3, 2, 1]),
        (4, 3, 2, [4, 5, 6, 1, 2, 3]),
        (5, 2, 3, [1, 4, 2, 5, 3, 6]),
        (6, 2, 3, [4, 1, 5, 2, 6, 3]),
        (7, 2, 3, [6, 3, 5, 2, 4, 1]),
        (8, 2, 3, [3, 6, 2, 5, 1, 4]),
    ])
    func orientations(exif: UInt32, width: Int, height: Int, expected: [Float]) {
        // 1 2 3
        // 4 5 6
        let turned = Self.depth([1, 2, 3, 4, 5, 6]).applyingOrientation(exif: exif)
        #expect(CVPixelBufferGetWidth(turned.depthDataMap) == width && CVPixelBufferGetHeight(turned.depthDataMap) == height)
        #expect(Self.values(turned) == expected)
        #expect(turned.depthDataAccuracy == .absolute)
    }

    @Test("replacing the map takes a depth or disparity buffer and refuses a picture")
    func replacing() throws {
        let depth = Self.depth([1, 2, 3, 4, 5, 6])
        let replaced = try depth.replacingDepthDataMap(with: Self.map([1, 1, 1, 1], width: 2, height: 2, format: .disparityFloat16))
        #expect(replaced.depthDataType == kCVPixelFormatType_DisparityFloat16 && replaced.depthDataQuality == .high)
        #expect(Self.values(replaced) == [1, 1, 1, 1])
        let picture = CVBuffer(format: .bgra, width: 2, height: 2)
        #expect(throws: AVError.self) { try depth.replacingDepthDataMap(with: picture) }
    }

    @Test("the auxiliary-data dictionary: the rows and their description, read back as they were")
    func dictionaryRoundTrip() throws {
        let depth = Self.depth([1, 2, 4, 0.5, 0.25, 8])
        var type: NSString?
        let dictionary = try #require(depth.dictionaryRepresentation(forAuxiliaryDataType: &type))
        #expect(type.map { $0 as String } == ImageAuxiliaryData.typeDepth)
        let description = try #require(dictionary[ImageAuxiliaryData.infoDataDescription] as? [AnyHashable: Any])
        #expect((description["Width"] as? NSNumber)?.intValue == 3 && (description["Height"] as? NSNumber)?.intValue == 2)
        #expect((description["PixelFormat"] as? NSNumber)?.uint32Value == kCVPixelFormatType_DepthFloat32)
        let read = try AVDepthData(fromDictionaryRepresentation: dictionary)
        #expect(read.depthDataType == kCVPixelFormatType_DepthFloat32 && Self.values(read) == [1, 2, 4, 0.5, 0.25, 8])
        // Without metadata: relative, unfiltered, low quality.
        #expect(read.depthDataAccuracy == .relative && !read.isDepthDataFiltered && read.depthDataQuality == .low)
        var disparityType: NSString?
        _ = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16).dictionaryRepresentation(forAuxiliaryDataType: &disparityType)
        #expect(disparityType.map { $0 as String } == ImageAuxiliaryData.typeDisparity)
    }

    @Test("a dictionary without the map, with too few bytes or a picture format is refused with the reason")
    func badDictionaries() {
        let description: [AnyHashable: Any] = ["Width": 3, "Height": 2, "BytesPerRow": 12, "PixelFormat": NSNumber(value: kCVPixelFormatType_DepthFloat32)]
        let cases: [([AnyHashable: Any], String)] = [
            ([ImageAuxiliaryData.infoDataDescription: description], ImageAuxiliaryData.infoData),
            ([ImageAuxiliaryData.infoData: Data(count: 23), ImageAuxiliaryData.infoDataDescription: description], "23 bytes"),
            (
                [
                    ImageAuxiliaryData.infoData: Data(count: 24),
                    ImageAuxiliaryData.infoDataDescription: description.merging(["PixelFormat": NSNumber(value: kCVPixelFormatType_32BGRA)]) { $1 },
                ], "PixelFormat"
            ),
        ]
        for (dictionary, reason) in cases {
            do {
                _ = try AVDepthData(fromDictionaryRepresentation: dictionary)
                Issue.record("accepted \(dictionary)")
            } catch let error as AVError {
                #expect(error.code == .invalidSourceMedia && error.localizedDescription.contains(reason), "\(error.localizedDescription)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("Core Video makes depth, disparity and matte buffers and describes them; they are not pictures")
    func coreVideoBuffers() throws {
        for (type, bits) in [
            (kCVPixelFormatType_DepthFloat32, 32), (kCVPixelFormatType_DisparityFloat16, 16), (kCVPixelFormatType_OneComponent8, 8),
        ] {
            var made: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, 5, 3, type, nil as CFDictionary?, &made) == kCVReturnSuccess)
            let buffer = try #require(made)
            #expect(CVPixelBufferGetBytesPerRow(buffer) >= 5 * bits / 8 && CVPixelBufferGetPlaneCount(buffer) == 0)
            let description = try #require(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, type))
            #expect((description[kCVPixelFormatBitsPerComponent] as? NSNumber)?.intValue == bits)
            #expect((description[kCVPixelFormatContainsGrayscale] as? NSNumber)?.boolValue == true)
            #expect((description[kCVPixelFormatContainsYCbCr] as? NSNumber)?.boolValue == false)
            // Not a picture: conversions refuse it rather than read it as BGRA.
            let bgra = CVBuffer(format: .bgra, width: 5, height: 3)
            #expect(!ImageTransform.transform(buffer, into: bgra, rotation: .none, mirrored: false))
        }
        #expect(!PixelFormat.pictureFormats.contains { $0.isAuxiliary })
    }
}
