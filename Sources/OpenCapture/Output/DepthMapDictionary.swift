import Foundation

/// A depth or disparity map as an image's auxiliary-data dictionary (ImageIO's
/// `kCGImageAuxiliaryDataInfo…` keys), both ways, for `AVDepthData`.
enum DepthMapDictionary {
    /// The auxiliary data type of a map's format.
    static func auxiliaryType(of format: PixelFormat) -> String {
        format == .disparityFloat16 || format == .disparityFloat32 ? ImageAuxiliaryData.typeDisparity : ImageAuxiliaryData.typeDepth
    }

    /// The map's rows (as stored, `BytesPerRow` apart) and their description.
    static func dictionary(of map: CVBuffer) -> [AnyHashable: Any] {
        let rowBytes = map.bytesPerRow(0)
        let data = withExtendedLifetime(map) { Data(bytes: map.planeAddress(0), count: rowBytes * map.height) }
        let description: [AnyHashable: Any] = [
            "Width": NSNumber(value: map.width), "Height": NSNumber(value: map.height), "BytesPerRow": NSNumber(value: rowBytes),
            "PixelFormat": NSNumber(value: map.format.rawValue),
        ]
        return [ImageAuxiliaryData.infoData: data, ImageAuxiliaryData.infoDataDescription: description]
    }

    /// The map a dictionary describes, copied into a buffer of its own.
    static func map(from dictionary: [AnyHashable: Any]) throws(AVError) -> CVBuffer {
        func fail(_ reason: String) -> AVError { AVError(.invalidSourceMedia, "Not a depth data dictionary: \(reason)") }
        guard let data = dictionary[ImageAuxiliaryData.infoData] as? Data else { throw fail("no \(ImageAuxiliaryData.infoData)") }
        guard let description = dictionary[ImageAuxiliaryData.infoDataDescription] as? [AnyHashable: Any] else {
            throw fail("no \(ImageAuxiliaryData.infoDataDescription)")
        }
        func number(_ key: String) -> Int? { (description[key] as? NSNumber)?.intValue ?? description[key] as? Int }
        guard let width = number("Width"), let height = number("Height"), width > 0, height > 0 else { throw fail("no positive Width and Height") }
        guard let code = number("PixelFormat"), let format = PixelFormat(rawValue: OSType(truncatingIfNeeded: code)), format.isDepth else {
            throw fail("PixelFormat is not a depth or disparity format")
        }
        let sampleBytes = format.planeGeometry(width: 1, height: 1)[0].bytesPerPixel
        let rowBytes = number("BytesPerRow") ?? width * sampleBytes
        guard rowBytes >= width * sampleBytes, height <= data.count / rowBytes else {
            throw fail("\(data.count) bytes for \(height) rows of \(rowBytes) bytes (\(width) samples of \(sampleBytes))")
        }
        let map = CVBuffer(format: format, width: width, height: height)
        withExtendedLifetime(map) {
            data.withUnsafeBytes { bytes in
                for y in 0..<height {
                    (map.planeAddress(0) + y * map.bytesPerRow(0)).copyMemory(from: bytes.baseAddress! + y * rowBytes, byteCount: width * sampleBytes)
                }
            }
        }
        return map
    }
}
