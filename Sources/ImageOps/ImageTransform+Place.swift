import CYUV
import CaptureCore

extension ImageTransform {
    /// Scales the `from` part of BGRA `source` into the `to` part of BGRA `destination` and
    /// paints the rest of `destination` opaque black: a picture placed in a frame, as a
    /// preview layer shows it. Both rectangles are clipped to their buffers.
    ///
    /// - Returns: `false`, leaving `destination` untouched, when either buffer is not BGRA,
    ///   they are the same buffer or a rectangle is empty after clipping.
    package static func place(
        _ source: CVPixelBuffer, from: PixelRect, into destination: CVPixelBuffer, to: PixelRect
    ) -> Bool {
        guard source !== destination, source.format == .bgra, destination.format == .bgra,
            let crop = clip(from, source), let target = clip(to, destination)
        else { return false }
        return withExtendedLifetime((source, destination)) {
            let sourceStride = source.int32Stride(0), stride = destination.int32Stride(0)
            let base = destination.bytes(0)
            // The bars: above, below, left and right of the picture.
            let bars = [
                (0, 0, destination.width, target.y), (0, target.y + target.height, destination.width, destination.height - target.y - target.height),
                (0, target.y, target.x, target.height), (target.x + target.width, target.y, destination.width - target.x - target.width, target.height),
            ]
            for (x, y, width, height) in bars where width > 0 && height > 0 {
                ARGBRect(base, stride, Int32(x), Int32(y), Int32(width), Int32(height), 0xFF00_0000)
            }
            return ARGBScale(
                source.bytes(0) + crop.y * Int(sourceStride) + crop.x * 4, sourceStride, Int32(crop.width), Int32(crop.height),
                base + target.y * Int(stride) + target.x * 4, stride, Int32(target.width), Int32(target.height), kFilterBox) == 0
        }
    }

    private static func clip(_ rect: PixelRect, _ buffer: CVBuffer) -> PixelRect? {
        let x = max(0, rect.x), y = max(0, rect.y)
        let right = min(buffer.width, rect.x + rect.width), bottom = min(buffer.height, rect.y + rect.height)
        guard right > x, bottom > y else { return nil }
        return PixelRect(x: x, y: y, width: right - x, height: bottom - y)
    }
}
