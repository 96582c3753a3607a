import CYUV
import CaptureCore

/// Same-format resizing with libyuv's scalers.
enum ImageScale {
    /// Box filtering shrinks without aliasing; libyuv falls back to bilinear when enlarging.
    /// Its box averages truncate, so at fractional ratios a flat area can come out one code low.
    private static let filter = kFilterBox

    /// Resizes `source` into `destination`; both must have the same format.
    static func scale(_ source: CVBuffer, into destination: CVBuffer) -> Bool {
        let sourceWidth = Int32(source.width), sourceHeight = Int32(source.height)
        let width = Int32(destination.width), height = Int32(destination.height)
        switch source.format.planeCount {
        case 3:
            return I420Scale(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1), source.bytes(2), source.int32Stride(2),
                sourceWidth, sourceHeight,
                destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                destination.bytes(2), destination.int32Stride(2), width, height, filter) == 0
        case 2:
            return NV12Scale(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1), sourceWidth, sourceHeight,
                destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                width, height, filter) == 0
        default:
            return ARGBScale(
                source.bytes(0), source.int32Stride(0), sourceWidth, sourceHeight,
                destination.bytes(0), destination.int32Stride(0), width, height, filter) == 0
        }
    }
}
