import Foundation

extension CGImage {
    /// A copy of a BGRA buffer's pixels as an image whose samples are in `colorSpace` (sRGB
    /// when nil): what photos' and image generators' Core Graphics images are made from.
    static func copying(bgra buffer: CVPixelBuffer, colorSpace: CGColorSpace? = nil) -> CGImage? {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return nil }
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
        return CGImage(
            width: buffer.width, height: buffer.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow,
            bitmapInfo: CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.noneSkipFirst.rawValue),
            bytes: Data(bytes: base, count: bytesPerRow * buffer.height), colorSpace: colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB))
    }
}
