import CaptureCore

/// Rescales YCbCr samples between video range (luma 16-235, chroma 16-240) and full range (0-255).
///
/// This libyuv has no 8-bit planar range conversion, so this is a 256-entry table lookup,
/// one pass per plane. A lookup works on interleaved NV12 chroma too, since Cb and Cr use
/// the same table, and it is safe in place.
enum RangeRemap {
    private static let videoToFullLuma = table { ($0 - 16) * 255 / 219 }
    private static let fullToVideoLuma = table { 16 + $0 * 219 / 255 }
    // Chroma rounds its offset from 128, so the scale stays symmetric: 16 -> 0 as 240 -> 255.
    private static let videoToFullChroma = table { 128 + (($0 - 128) * 255 / 224).rounded() }
    private static let fullToVideoChroma = table { 128 + (($0 - 128) * 224 / 255).rounded() }

    private static func table(_ map: (Double) -> Double) -> [UInt8] {
        (0..<256).map { UInt8(min(max(map(Double($0)).rounded(), 0), 255)) }
    }

    /// Remaps every plane of a YCbCr `source` into `destination` of the same layout and size,
    /// reading the source upside down when `flipsSource`. Passing one buffer twice remaps in place.
    static func remap(_ source: CVBuffer, into destination: CVBuffer, toFullRange: Bool, flipsSource: Bool = false) {
        for plane in destination.planes.indices {
            let info = destination.planes[plane]
            let isLuma = plane == 0
            let lut = isLuma
                ? (toFullRange ? videoToFullLuma : fullToVideoLuma)
                : (toFullRange ? videoToFullChroma : fullToVideoChroma)
            // NV12 chroma interleaves two samples per pixel pair.
            let rowBytes = destination.format.isBiPlanar && !isLuma ? info.width * 2 : info.width
            lut.withUnsafeBufferPointer { table in
                apply(
                    table, rows: info.height, rowBytes: rowBytes,
                    from: source.bytes(plane), sourceStride: source.bytesPerRow(plane), flipsSource: flipsSource,
                    to: destination.bytes(plane), destinationStride: info.bytesPerRow)
            }
        }
    }

    private static func apply(
        _ table: UnsafeBufferPointer<UInt8>, rows: Int, rowBytes: Int,
        from source: UnsafeMutablePointer<UInt8>, sourceStride: Int, flipsSource: Bool,
        to destination: UnsafeMutablePointer<UInt8>, destinationStride: Int
    ) {
        var sourceRow = flipsSource ? source + (rows - 1) * sourceStride : source
        let step = flipsSource ? -sourceStride : sourceStride
        var destinationRow = destination
        for _ in 0..<rows {
            for column in 0..<rowBytes {
                destinationRow[column] = table[Int(sourceRow[column])]
            }
            sourceRow += step
            destinationRow += destinationStride
        }
    }
}
