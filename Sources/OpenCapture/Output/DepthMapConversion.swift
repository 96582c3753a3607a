import Foundation

/// Depth and disparity maps converted between their four formats, for `AVDepthData`. Maps
/// are small (a few hundred pixels a side), so a plain loop over the samples does.
enum DepthMapConversion {
    /// The formats a depth or disparity map converts to, in Core Video's order.
    static let types = PixelFormat.allCases.filter(\.isDepth)

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
