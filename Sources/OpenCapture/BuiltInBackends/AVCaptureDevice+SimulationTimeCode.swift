import Foundation
import SimulatedCamera

extension AVCaptureDevice.Simulation {
    /// The presentation times shown by `SceneElement.Content.timeCode` cards in a picture
    /// (Linux addition), in the order found; empty when none reads. Each is a time on the
    /// host clock (`CMClockGetHostTimeClock()`, CLOCK_MONOTONIC) to the microsecond, so
    /// `CMClockGetTime(CMClockGetHostTimeClock()) - time` is the picture's age: glass-to-glass
    /// latency when taken as the picture is shown.
    ///
    /// Reads 8-bit and 10-bit Y'CbCr buffers by their luma and BGRA buffers, at any scale
    /// and position (zxing-cpp finds the code), so a decoded, scaled or re-encoded frame
    /// reads too: a stream receiver's, or a browser's screenshot.
    public static func timeCodes(in pixelBuffer: CVPixelBuffer) -> [CMTime] {
        let layout: BarcodeReader.Layout =
            pixelBuffer.format == .bgra ? .bgrx : pixelBuffer.format.isTenBit ? .luma16 : .luma8
        return withExtendedLifetime(pixelBuffer) {
            timeCodes(
                pixels: UnsafeRawPointer(pixelBuffer.planeAddress(0)), width: pixelBuffer.width, height: pixelBuffer.height,
                bytesPerRow: pixelBuffer.bytesPerRow(0), layout: layout)
        }
    }

    /// The presentation times shown in an 8-bit grey picture (`width`x`height`, rows
    /// `bytesPerRow` apart: at least `width`); see `timeCodes(in:)`.
    public static func timeCodes(inLuma luma: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> [CMTime] {
        guard width > 0, height > 0, bytesPerRow >= width, let base = luma.baseAddress, luma.count >= bytesPerRow * (height - 1) + width
        else { return [] }
        return timeCodes(pixels: base, width: width, height: height, bytesPerRow: bytesPerRow, layout: .luma8)
    }

    private static func timeCodes(pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, layout: BarcodeReader.Layout) -> [CMTime] {
        BarcodeReader.read(pixels, width: width, height: height, bytesPerRow: bytesPerRow, layout: layout, types: [.qr]).compactMap { symbol in
            TimeCodeStamp.nanoseconds(fromText: symbol.text).map { CMTime(value: $0, timescale: 1_000_000_000) }
        }
    }
}
