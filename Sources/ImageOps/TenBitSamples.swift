import CaptureCore

/// Sample-level work on 10-bit 4:2:0 buffers ('x420', 'xf20': P010 layout, 16-bit
/// little-endian words holding value << 6, luma plane then interleaved CbCr): narrowing to
/// and widening from 8-bit NV12 of the same range, turning and mirroring, range changes.
///
/// Libyuv's P010 helpers convert to and from its own planar layouts and scale ranges with
/// BT.601 assumptions, so these are plain loops over lookup tables. Video range is ×4 both
/// ways (16 → 64, 128 → 512, 235 → 940); full range scales by 1023/255 about each
/// component's zero (luma 0, chroma 128 → 512, as `YCbCrRange.full` codes them). 8 → 10
/// bits is exact, 10 → 8 rounds to the nearest code.
enum TenBitSamples {
    /// 10-bit value → 8-bit code: video range, then full-range luma and chroma.
    private static let narrowVideo: [UInt8] = (0..<1024).map { UInt8(min(255, ($0 + 2) >> 2)) }
    private static let narrowFull: [[UInt8]] = [
        (0..<1024).map { UInt8(($0 * 255 + 511) / 1023) },
        (0..<1024).map { UInt8(min(255, max(0, ((Double($0) - 512) * 255 / 1023 + 128).rounded()))) },
    ]
    /// 8-bit code → 10-bit word (value << 6): video range, then full-range luma and chroma.
    private static let widenVideo: [UInt16] = (0..<256).map { UInt16($0 * 4) << 6 }
    private static let widenFull: [[UInt16]] = [
        (0..<256).map { UInt16(($0 * 1023 + 127) / 255) << 6 },
        (0..<256).map { UInt16(min(1023, max(0, ((Double($0) - 128) * 1023 / 255 + 512).rounded()))) << 6 },
    ]
    /// 10-bit word → 10-bit word in the other range: [to full, to video] × [luma, chroma].
    private static let remapTables: [[UInt16]] = [
        table { (Double($0) - 64) * 1023 / 876 },
        table { (Double($0) - 512) * 1023 / 896 + 512 },
        table { Double($0) * 876 / 1023 + 64 },
        table { (Double($0) - 512) * 896 / 1023 + 512 },
    ]

    private static func table(_ map: (Int) -> Double) -> [UInt16] {
        (0..<1024).map { UInt16(min(1023, max(0, map($0).rounded()))) << 6 }
    }

    /// Writes 10-bit `source` into 8-bit NV12 `destination` of the same size and range.
    static func narrow(_ source: CVBuffer, into destination: CVBuffer) {
        for plane in 0..<2 {
            let table = source.format.isFullRange ? narrowFull[plane] : narrowVideo
            table.withUnsafeBufferPointer { map in
                let samples = source.planes[plane].width * (plane == 0 ? 1 : 2)
                for y in 0..<source.planes[plane].height {
                    let from = (source.planeAddress(plane) + y * source.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)
                    let to = (destination.planeAddress(plane) + y * destination.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<samples { to[x] = map[Int(from[x] >> 6)] }
                }
            }
        }
    }

    /// Writes 8-bit NV12 `source` into 10-bit `destination` of the same size and range.
    static func widen(_ source: CVBuffer, into destination: CVBuffer) {
        for plane in 0..<2 {
            let table = destination.format.isFullRange ? widenFull[plane] : widenVideo
            table.withUnsafeBufferPointer { map in
                let samples = source.planes[plane].width * (plane == 0 ? 1 : 2)
                for y in 0..<source.planes[plane].height {
                    let from = (source.planeAddress(plane) + y * source.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self)
                    let to = (destination.planeAddress(plane) + y * destination.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<samples { to[x] = map[Int(from[x])] }
                }
            }
        }
    }

    /// Rescales a 10-bit buffer's samples in place to the other range (`toFullRange`: video
    /// → full, else full → video).
    static func remap(_ buffer: CVBuffer, toFullRange: Bool) {
        for plane in 0..<2 {
            remapTables[(toFullRange ? 0 : 2) + plane].withUnsafeBufferPointer { map in
                let samples = buffer.planes[plane].width * (plane == 0 ? 1 : 2)
                for y in 0..<buffer.planes[plane].height {
                    let row = (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<samples { row[x] = map[Int(row[x] >> 6)] }
                }
            }
        }
    }

    /// Writes 10-bit `source` into 10-bit `destination` (sized for the oriented picture),
    /// flipped and turned as `orientation` says; samples are copied as they are.
    static func orient(_ source: CVBuffer, into destination: CVBuffer, _ orientation: Orientation) {
        orientPlane(source, 0, into: destination, UInt16.self, orientation)
        // A CbCr pair moves as one 32-bit unit.
        orientPlane(source, 1, into: destination, UInt32.self, orientation)
    }

    private static func orientPlane<Sample>(
        _ source: CVBuffer, _ plane: Int, into destination: CVBuffer, _: Sample.Type, _ orientation: Orientation
    ) {
        let width = source.planes[plane].width, height = source.planes[plane].height
        let target = destination.planeAddress(plane), stride = destination.bytesPerRow(plane)
        func out(_ x: Int, _ y: Int) -> UnsafeMutablePointer<Sample> {
            (target + y * stride).assumingMemoryBound(to: Sample.self) + x
        }
        for sourceY in 0..<height {
            let row = UnsafePointer((source.planeAddress(plane) + sourceY * source.bytesPerRow(plane)).assumingMemoryBound(to: Sample.self))
            let y = orientation.flipsSource ? height - 1 - sourceY : sourceY
            switch orientation.turn {
            case .none:
                out(0, y).update(from: row, count: width)
            case .clockwise90:
                for x in 0..<width { out(height - 1 - y, x).pointee = row[x] }
            case .clockwise180:
                let line = out(0, height - 1 - y)
                for x in 0..<width { line[width - 1 - x] = row[x] }
            case .clockwise270:
                for x in 0..<width { out(y, width - 1 - x).pointee = row[x] }
            }
        }
    }
}
