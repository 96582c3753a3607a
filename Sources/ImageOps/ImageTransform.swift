// Pixel-format conversion, rotation, mirroring and scaling between Core Video buffers.
//
// Colour: YCbCr -> BGRA decodes with the matrix the source's kCVImageBufferYCbCrMatrixKey
// names (BT.601 for V4L2 cameras' ITU_R_601_4, else BT.709: Kr 0.2126, Kb 0.0722);
// BGRA -> YCbCr encodes BT.709. Ranges are the ones the YCbCr format names: '420v' and 'y420' are video range (luma 16-235,
// chroma 16-240), '420f' and 'f420' full range (0-255). BGRA is full-range RGB.
// Decoding uses libyuv's kYuvF709Constants, after expanding video-range sources to full
// range (libyuv's kYuvH709Constants is inexact, see `decode`); encoding is `BT709Encoder`,
// because this libyuv only encodes with BT.601.
// YCbCr to YCbCr between ranges rescales the samples (`RangeRemap`).
// 10-bit 'x420'/'xf20' convert through 8-bit NV12 of their range (`TenBitSamples`); between
// themselves they keep all 10 bits.

import CYUV
import CaptureCore

/// Converts, rotates, mirrors and scales pixel buffers.
///
/// Every pairing of the seven formats works, at every rotation, mirrored or not, at any
/// size including odd ones. Calls are thread-safe. Transforms that need an intermediate
/// picture borrow it from a shared pool, so repeated calls with the same sizes do not
/// allocate. Libyuv's scalers malloc row buffers internally, so `scale` does.
package enum ImageTransform {
    /// Writes `source` into `destination`, converting the pixel format, rotating clockwise by
    /// `rotation` and then mirroring horizontally (left-right in the output image) when `mirrored`.
    ///
    /// - Returns: `false`, leaving `destination` untouched, when its size is not the source size
    ///   (swapped for 90 and 270 degrees), when both are the same buffer or when either is an
    ///   auxiliary image (depth, a matte), which is not a picture.
    package static func transform(
        _ source: CVPixelBuffer, into destination: CVPixelBuffer, rotation: Rotation, mirrored: Bool
    ) -> Bool {
        let expected = rotation.rotatedSize(width: source.width, height: source.height)
        guard source !== destination, destination.width == expected.width, destination.height == expected.height,
            !source.format.isAuxiliary, !destination.format.isAuxiliary
        else { return false }
        let orientation = Orientation(rotation: rotation, mirrored: mirrored)
        return withExtendedLifetime((source, destination)) {
            transform(source, destination, orientation)
        }
    }

    /// `transform(_:into:rotation:mirrored:)` once sizes are checked. 10-bit buffers go
    /// through 8-bit NV12 scratch of their own range, except 10 bits to 10 bits, which keeps
    /// every bit (see `TenBitSamples`).
    private static func transform(_ source: CVBuffer, _ destination: CVBuffer, _ orientation: Orientation) -> Bool {
        switch (source.format.isTenBit, destination.format.isTenBit) {
        case (true, true):
            TenBitSamples.orient(source, into: destination, orientation)
            if source.format.isFullRange != destination.format.isFullRange {
                TenBitSamples.remap(destination, toFullRange: destination.format.isFullRange)
            }
            return true
        case (true, false):
            return ScratchPool.shared.withBuffer(format: source.format.eightBit, width: source.width, height: source.height) {
                TenBitSamples.narrow(source, into: $0)
                // The decoder reads the Y'CbCr matrix from the attachments.
                let attachments = source.attachmentStore.withLock { $0 }
                $0.attachmentStore.withLock { $0 = attachments }
                return transform($0, destination, orientation)
            }
        case (false, true):
            return ScratchPool.shared.withBuffer(
                format: destination.format.eightBit, width: destination.width, height: destination.height
            ) {
                guard transform(source, $0, orientation) else { return false }
                TenBitSamples.widen($0, into: destination)
                return true
            }
        case (false, false):
            switch (source.format.isYUV, destination.format.isYUV) {
            case (true, true): return yuvToYUV(source, destination, orientation)
            case (true, false): return yuvToBGRA(source, destination, orientation)
            case (false, true): return bgraToYUV(source, destination, orientation)
            case (false, false):
                return Orient.bgra(source, into: destination.bytes(0), stride: destination.int32Stride(0), orientation)
            }
        }
    }

    /// Resizes `source` into `destination`, which must have the same pixel format and may
    /// have any size. Uses libyuv's box filter when shrinking and bilinear when enlarging.
    ///
    /// - Returns: `false` when the formats differ, both are the same buffer or the format is
    ///   an auxiliary image's (depth, a matte).
    package static func scale(_ source: CVPixelBuffer, into destination: CVPixelBuffer) -> Bool {
        guard source !== destination, source.format == destination.format, !source.format.isAuxiliary else { return false }
        return withExtendedLifetime((source, destination)) {
            ImageScale.scale(source, into: destination)
        }
    }

    private static func yuvToYUV(_ source: CVBuffer, _ destination: CVBuffer, _ orientation: Orientation) -> Bool {
        let toFullRange = destination.format.isFullRange
        let rangeChanges = source.format.isFullRange != toFullRange
        if rangeChanges, orientation.turn == .none, source.format.planeCount == destination.format.planeCount {
            // Same layout, no turn: the range lookup doubles as the copy.
            RangeRemap.remap(source, into: destination, toFullRange: toFullRange, flipsSource: orientation.flipsSource)
            return true
        }
        let placed = destination.format.isTriPlanar
            ? Orient.yuvToI420(source, into: I420Planes(destination), orientation)
            : Orient.yuvToNV12(source, into: destination, orientation)
        guard placed else { return false }
        if rangeChanges {
            RangeRemap.remap(destination, into: destination, toFullRange: toFullRange)
        }
        return true
    }

    private static func yuvToBGRA(_ source: CVBuffer, _ destination: CVBuffer, _ orientation: Orientation) -> Bool {
        let expands = !source.format.isFullRange
        let matrix = DecodeMatrix.of(source)
        if orientation.turn == .none && !expands {
            return decode(source, flipsSource: orientation.flipsSource, into: destination, matrix: matrix)
        }
        if orientation.turn == .none {
            // Expanding the range into scratch of the same layout doubles as the flip.
            let fullRange: PixelFormat = source.format.isBiPlanar ? .yuv420BiPlanarFullRange : .yuv420PlanarFullRange
            return ScratchPool.shared.withBuffer(format: fullRange, width: source.width, height: source.height) { scratch in
                RangeRemap.remap(source, into: scratch, toFullRange: true, flipsSource: orientation.flipsSource)
                return decode(scratch, flipsSource: false, into: destination, matrix: matrix)
            }
        }
        // Turning the smaller YCbCr picture first moves fewer bytes than turning BGRA.
        return ScratchPool.shared.withBuffer(
            format: .yuv420PlanarFullRange, width: destination.width, height: destination.height
        ) { scratch in
            guard Orient.yuvToI420(source, into: I420Planes(scratch), orientation) else { return false }
            if expands { RangeRemap.remap(scratch, into: scratch, toFullRange: true) }
            return decode(scratch, flipsSource: false, into: destination, matrix: matrix)
        }
    }

    /// Decodes full-range YCbCr (whatever `source`'s format says) with a full-range matrix.
    ///
    /// Libyuv's video-range BT.709 matrix (kYuvH709Constants) clamps the Cb-to-blue gain
    /// to 2.0 instead of 2.112 so it fits its SIMD code, which puts saturated colours up to
    /// about 12 off; video-range sources are expanded to full range before coming here.
    private static func decode(_ source: CVBuffer, flipsSource: Bool, into destination: CVBuffer, matrix decodeMatrix: DecodeMatrix) -> Bool {
        let height = flipsSource ? -Int32(source.height) : Int32(source.height)
        let matrix = decodeMatrix.pointer
        if source.format.isBiPlanar {
            return NV12ToARGBMatrix(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                destination.bytes(0), destination.int32Stride(0), matrix, Int32(source.width), height) == 0
        }
        return I420ToARGBMatrix(
            source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1), source.bytes(2), source.int32Stride(2),
            destination.bytes(0), destination.int32Stride(0), matrix, Int32(source.width), height) == 0
    }

    private static func bgraToYUV(_ source: CVBuffer, _ destination: CVBuffer, _ orientation: Orientation) -> Bool {
        guard orientation.turn == .none else {
            // Turn in BGRA first so chroma is subsampled in the output's own 2x2 blocks.
            return ScratchPool.shared.withBuffer(
                format: .bgra, width: destination.width, height: destination.height
            ) { scratch in
                guard Orient.bgra(source, into: scratch.bytes(0), stride: scratch.int32Stride(0), orientation)
                else { return false }
                encode(scratch, flipsSource: false, into: destination)
                return true
            }
        }
        encode(source, flipsSource: orientation.flipsSource, into: destination)
        return true
    }

    /// Encodes a BGRA picture into an 8-bit 4:2:0 buffer of the same size with the Y'CbCr
    /// matrix whose luma weights of red and blue are `kr` and `kb` (an asset writer asked
    /// for BT.601 or BT.2020, say). False, leaving `destination` untouched, for other
    /// formats or sizes.
    package static func encode(bgra source: CVPixelBuffer, into destination: CVPixelBuffer, kr: Double, kb: Double) -> Bool {
        guard source.format == .bgra, destination.format.isYUV, !destination.format.isTenBit,
            source.width == destination.width, source.height == destination.height
        else { return false }
        withExtendedLifetime((source, destination)) {
            encode(source, flipsSource: false, into: destination, with: BT709Encoder(kr: kr, kb: kb, fullRange: destination.format.isFullRange))
        }
        return true
    }

    private static func encode(_ source: CVBuffer, flipsSource: Bool, into destination: CVBuffer, with encoder: BT709Encoder? = nil) {
        let rowBytes = source.bytesPerRow(0)
        let top = UnsafePointer(source.bytes(0))
        let chromaStep = destination.format.isBiPlanar ? 2 : 1
        let cr = destination.format.isBiPlanar ? destination.bytes(1) + 1 : destination.bytes(2)
        (encoder ?? BT709Encoder(fullRange: destination.format.isFullRange)).encode(
            source: flipsSource ? top + (source.height - 1) * rowBytes : top,
            sourceStride: flipsSource ? -rowBytes : rowBytes,
            width: source.width, height: source.height,
            y: destination.bytes(0), yStride: destination.bytesPerRow(0),
            u: destination.bytes(1), v: cr, chromaStride: destination.bytesPerRow(1), chromaStep: chromaStep)
    }
}
