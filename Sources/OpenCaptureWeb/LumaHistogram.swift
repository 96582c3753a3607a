import Foundation
import OpenCapture

/// A frame's brightness distribution for the page's histogram: 64 bins of 8-bit luma, from
/// every 4th pixel of every 4th row (a 1080p frame costs about 130 000 reads).
enum LumaHistogram {
    static let binCount = 64

    /// The histogram of `pixels` (bi-planar 4:2:0 by its luma plane; 32-bit BGRA by
    /// Rec. 709 luma), or nil for other pixel formats.
    static func of(_ pixels: CVPixelBuffer) -> [Int]? {
        let format = CVPixelBufferGetPixelFormatType(pixels)
        let biPlanar = [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange].contains(format)
        guard biPlanar || format == kCVPixelFormatType_32BGRA else { return nil }
        guard CVPixelBufferLockBaseAddress(pixels, .readOnly) == kCVReturnSuccess else { return nil }
        defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
        let width = CVPixelBufferGetWidth(pixels)
        let height = CVPixelBufferGetHeight(pixels)
        let base = biPlanar ? CVPixelBufferGetBaseAddressOfPlane(pixels, 0) : CVPixelBufferGetBaseAddress(pixels)
        let stride = biPlanar ? CVPixelBufferGetBytesPerRowOfPlane(pixels, 0) : CVPixelBufferGetBytesPerRow(pixels)
        guard let bytes = base?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var bins = [Int](repeating: 0, count: binCount)
        for y in Swift.stride(from: 0, to: height, by: 4) {
            let row = bytes + y * stride
            for x in Swift.stride(from: 0, to: width, by: 4) {
                let luma: Int
                if biPlanar {
                    luma = Int(row[x])
                } else {
                    let pixel = row + x * 4
                    luma = (Int(pixel[2]) * 54 + Int(pixel[1]) * 183 + Int(pixel[0]) * 19) >> 8
                }
                bins[luma * binCount / 256] += 1
            }
        }
        return bins
    }
}
