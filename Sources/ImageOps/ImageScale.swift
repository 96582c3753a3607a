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
        if source.format.isTenBit { return scaleTenBit(source, into: destination) }
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

    /// 'x420'/'xf20': luma with libyuv's 16-bit plane scaler; CbCr split into two planes
    /// (libyuv's interleaved 16-bit scaler is incomplete), scaled and merged back. Libyuv's
    /// 16-bit functions take strides in samples.
    private static func scaleTenBit(_ source: CVBuffer, into destination: CVBuffer) -> Bool {
        func words(_ buffer: CVBuffer, _ plane: Int) -> UnsafeMutablePointer<UInt16> {
            buffer.planeAddress(plane).assumingMemoryBound(to: UInt16.self)
        }
        func stride(_ buffer: CVBuffer, _ plane: Int) -> Int32 { Int32(buffer.bytesPerRow(plane) / 2) }
        ScalePlane_16(
            words(source, 0), stride(source, 0), Int32(source.width), Int32(source.height),
            words(destination, 0), stride(destination, 0), Int32(destination.width), Int32(destination.height), filter)
        let from = source.planes[1], to = destination.planes[1]
        let fromCount = from.width * from.height, toCount = to.width * to.height
        let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * (fromCount + toCount))
        defer { scratch.deallocate() }
        let (u, v) = (scratch, scratch + fromCount)
        let (scaledU, scaledV) = (scratch + 2 * fromCount, scratch + 2 * fromCount + toCount)
        SplitUVPlane_16(words(source, 1), stride(source, 1), u, Int32(from.width), v, Int32(from.width),
            Int32(from.width), Int32(from.height), 10)
        for (plane, scaled) in [(u, scaledU), (v, scaledV)] {
            ScalePlane_16(plane, Int32(from.width), Int32(from.width), Int32(from.height),
                scaled, Int32(to.width), Int32(to.width), Int32(to.height), filter)
        }
        MergeUVPlane_16(scaledU, Int32(to.width), scaledV, Int32(to.width), words(destination, 1), stride(destination, 1),
            Int32(to.width), Int32(to.height), 10)
        return true
    }
}
