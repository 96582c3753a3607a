import CaptureCore
import Foundation
import MediaIO

/// What the stream shows while the camera is gone: dimmed colour bars over a dark band, so
/// a viewer sees at once that the picture is not the scene (and not a frozen frame).
enum NoSignalPicture {
    static func jpeg(width: Int, height: Int) -> Data? {
        let width = max(16, width & ~1)
        let height = max(16, height & ~1)
        let buffer = CVPixelBuffer(format: .bgra, width: width, height: height)
        let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        let stride = buffer.bytesPerRow(0)
        // White, yellow, cyan, green, magenta, red, blue, black, at half level (B, G, R).
        let bars: [(UInt8, UInt8, UInt8)] = [
            (128, 128, 128), (0, 128, 128), (128, 128, 0), (0, 128, 0), (128, 0, 128), (0, 0, 128), (128, 0, 0), (16, 16, 16),
        ]
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width {
                let (b, g, r) = y < height * 2 / 3 ? bars[x * bars.count / width] : (24, 24, 24)
                row[4 * x] = b
                row[4 * x + 1] = g
                row[4 * x + 2] = r
                row[4 * x + 3] = 255
            }
        }
        return try? JPEGEncoder.encode(buffer, quality: 80, exif: nil)
    }
}
