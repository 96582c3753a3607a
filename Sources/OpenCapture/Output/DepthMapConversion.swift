import Foundation

/// Depth and disparity maps converted between their four formats and turned by EXIF
/// orientations, for `AVDepthData`. Maps are small (a few hundred pixels a side), so
/// plain loops over the samples do.
enum DepthMapConversion {
    /// The formats a depth or disparity map converts to, in Core Video's order.
    static let types: [PixelFormat] = [.disparityFloat16, .disparityFloat32, .depthFloat16, .depthFloat32]

    /// `map` in `target`: depth (metres) and disparity (1/metres) are each other's
    /// reciprocal (0 ↔ infinity); half and single precision round as IEEE does.
    static func convert(_ map: CVBuffer, to target: PixelFormat) -> CVBuffer {
        let output = CVBuffer(format: target, width: map.width, height: map.height)
        let reciprocal = isDisparity(map.format) != isDisparity(target)
        withExtendedLifetime((map, output)) {
            for y in 0..<map.height {
                let from = map.planeAddress(0) + y * map.bytesPerRow(0), to = output.planeAddress(0) + y * output.bytesPerRow(0)
                for x in 0..<map.width {
                    let value = read(from, x, map.format)
                    write(reciprocal ? 1 / value : value, to, x, target)
                }
            }
        }
        return output
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

    private static func isDisparity(_ format: PixelFormat) -> Bool { format == .disparityFloat16 || format == .disparityFloat32 }

    private static func read(_ row: UnsafeMutableRawPointer, _ x: Int, _ format: PixelFormat) -> Float {
        switch format {
        case .disparityFloat16, .depthFloat16: Float(row.load(fromByteOffset: 2 * x, as: Float16.self))
        default: row.load(fromByteOffset: 4 * x, as: Float.self)
        }
    }

    private static func write(_ value: Float, _ row: UnsafeMutableRawPointer, _ x: Int, _ format: PixelFormat) {
        switch format {
        case .disparityFloat16, .depthFloat16: row.storeBytes(of: Float16(value), toByteOffset: 2 * x, as: Float16.self)
        default: row.storeBytes(of: value, toByteOffset: 4 * x, as: Float.self)
        }
    }
}
