import CYUV
import CaptureCore

extension ImageTransform {
    /// Scales the `from` part of `source` into the whole of `destination` (same 8-bit pixel
    /// format, any size): a crop and a resize in one pass (libyuv's box filter shrinking,
    /// bilinear enlarging). For 4:2:0 formats the rectangle is first snapped outwards to
    /// even coordinates, so chroma stays aligned.
    ///
    /// - Returns: `false`, leaving `destination` untouched, when the formats differ, the
    ///   format is 10-bit or an auxiliary image's, both are the same buffer or `from` is empty
    ///   within the source.
    package static func scale(_ source: CVPixelBuffer, from rect: PixelRect, into destination: CVPixelBuffer) -> Bool {
        guard source !== destination, source.format == destination.format, !source.format.isTenBit, !source.format.isAuxiliary
        else { return false }
        var x = max(0, rect.x), y = max(0, rect.y)
        var right = min(source.width, rect.x + rect.width), bottom = min(source.height, rect.y + rect.height)
        if source.format.isYUV {
            x -= x % 2
            y -= y % 2
            right = min(source.width, right + right % 2)
            bottom = min(source.height, bottom + bottom % 2)
        }
        guard right > x, bottom > y else { return false }
        let width = Int32(right - x), height = Int32(bottom - y)
        let outWidth = Int32(destination.width), outHeight = Int32(destination.height)
        return withExtendedLifetime((source, destination)) {
            switch source.format.planeCount {
            case 3:
                return I420Scale(
                    source.bytes(0) + y * source.bytesPerRow(0) + x, source.int32Stride(0),
                    source.bytes(1) + y / 2 * source.bytesPerRow(1) + x / 2, source.int32Stride(1),
                    source.bytes(2) + y / 2 * source.bytesPerRow(2) + x / 2, source.int32Stride(2), width, height,
                    destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                    destination.bytes(2), destination.int32Stride(2), outWidth, outHeight, kFilterBox) == 0
            case 2:
                return NV12Scale(
                    source.bytes(0) + y * source.bytesPerRow(0) + x, source.int32Stride(0),
                    source.bytes(1) + y / 2 * source.bytesPerRow(1) + x, source.int32Stride(1), width, height,
                    destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                    outWidth, outHeight, kFilterBox) == 0
            default:
                return ARGBScale(
                    source.bytes(0) + y * source.bytesPerRow(0) + x * 4, source.int32Stride(0), width, height,
                    destination.bytes(0), destination.int32Stride(0), outWidth, outHeight, kFilterBox) == 0
            }
        }
    }
}
