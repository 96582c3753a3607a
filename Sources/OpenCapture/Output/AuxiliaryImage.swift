import Foundation

/// An auxiliary image (a depth or disparity map, a matte) as an image's auxiliary-data
/// dictionary (ImageIO's `kCGImageAuxiliaryDataInfo…` keys), both ways, and turned by EXIF
/// orientations, for `AVDepthData` and the mattes. The images are small (a few hundred
/// pixels a side), so plain loops over the samples do.
enum AuxiliaryImage {
    /// The auxiliary data type of a depth or disparity map's format.
    static func depthType(of format: PixelFormat) -> String {
        format == .disparityFloat16 || format == .disparityFloat32 ? ImageAuxiliaryData.typeDisparity : ImageAuxiliaryData.typeDepth
    }

    /// The image's rows (as stored, `BytesPerRow` apart) and their description.
    static func dictionary(of map: CVBuffer) -> [AnyHashable: Any] {
        let rowBytes = map.bytesPerRow(0)
        let data = withExtendedLifetime(map) { Data(bytes: map.planeAddress(0), count: rowBytes * map.height) }
        let description: [AnyHashable: Any] = [
            "Width": NSNumber(value: map.width), "Height": NSNumber(value: map.height), "BytesPerRow": NSNumber(value: rowBytes),
            "PixelFormat": NSNumber(value: map.format.rawValue),
        ]
        return [ImageAuxiliaryData.infoData: data, ImageAuxiliaryData.infoDataDescription: description]
    }

    /// The image a dictionary describes, copied into a buffer of its own; `what` names the
    /// object made in errors ("depth data"), `accepts` says which formats it takes.
    static func map(
        from dictionary: [AnyHashable: Any], what: String, accepts: (PixelFormat) -> Bool, formats: String
    ) throws(AVError) -> CVBuffer {
        func fail(_ reason: String) -> AVError { AVError(.invalidSourceMedia, "Not a \(what) dictionary: \(reason)") }
        guard let data = dictionary[ImageAuxiliaryData.infoData] as? Data else { throw fail("no \(ImageAuxiliaryData.infoData)") }
        guard let description = dictionary[ImageAuxiliaryData.infoDataDescription] as? [AnyHashable: Any] else {
            throw fail("no \(ImageAuxiliaryData.infoDataDescription)")
        }
        func number(_ key: String) -> Int? { (description[key] as? NSNumber)?.intValue ?? description[key] as? Int }
        guard let width = number("Width"), let height = number("Height"), width > 0, height > 0 else { throw fail("no positive Width and Height") }
        guard let code = number("PixelFormat"), let format = PixelFormat(rawValue: OSType(truncatingIfNeeded: code)), accepts(format) else {
            throw fail("PixelFormat is not \(formats)")
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

    /// `map` turned as EXIF `orientation` says (1 as is, 2 mirrored, 3 half a turn, 4 flipped,
    /// 5 transposed, 6 a quarter turn clockwise, 7 transversed, 8 a quarter turn
    /// anticlockwise): the map as it is to be shown. Any other value leaves it as it is.
    static func orient(_ map: CVBuffer, exif orientation: UInt32) -> CVBuffer {
        let width = map.width, height = map.height
        let swaps = (5...8).contains(orientation)
        let output = CVBuffer(format: map.format, width: swaps ? height : width, height: swaps ? width : height)
        let size = map.format.planeGeometry(width: 1, height: 1)[0].bytesPerPixel
        withExtendedLifetime((map, output)) {
            for y in 0..<output.height {
                let to = output.planeAddress(0) + y * output.bytesPerRow(0)
                for x in 0..<output.width {
                    let (sx, sy): (Int, Int) =
                        switch orientation {
                        case 2: (width - 1 - x, y)
                        case 3: (width - 1 - x, height - 1 - y)
                        case 4: (x, height - 1 - y)
                        case 5: (y, x)
                        case 6: (y, height - 1 - x)
                        case 7: (width - 1 - y, height - 1 - x)
                        case 8: (width - 1 - y, x)
                        default: (x, y)
                        }
                    (to + x * size).copyMemory(from: map.planeAddress(0) + sy * map.bytesPerRow(0) + sx * size, byteCount: size)
                }
            }
        }
        return output
    }
}
