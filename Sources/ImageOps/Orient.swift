import CYUV
import CaptureCore

/// Same-family geometry: flips and turns pictures with libyuv, without converting colour.
///
/// Libyuv's 180-degree rotations allocate a temporary row per call, so 180 degrees is
/// done with its mirror functions instead (see `Orientation.mirrorHeight`).
enum Orient {
    /// Writes a YCbCr `source` (I420 or NV12 layout) into I420 planes sized for the
    /// oriented picture. Values are copied as they are; range is the caller's business.
    static func yuvToI420(_ source: CVBuffer, into target: I420Planes, _ orientation: Orientation) -> Bool {
        let width = Int32(source.width)
        let height = source.height
        if source.format.isTriPlanar {
            if orientation.turn == .clockwise180 {
                return I420Mirror(
                    source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                    source.bytes(2), source.int32Stride(2),
                    target.y, target.yStride, target.u, target.uStride, target.v, target.vStride,
                    width, orientation.mirrorHeight(height)) == 0
            }
            return I420Rotate(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                source.bytes(2), source.int32Stride(2),
                target.y, target.yStride, target.u, target.uStride, target.v, target.vStride,
                width, orientation.sourceHeight(height), rotationMode(orientation.turn)) == 0
        }
        if orientation.turn == .clockwise180 {
            // No NV12-to-I420 mirror exists: mirror luma, and let the chroma splitter turn
            // (its 180-degree path does not allocate; its height sign means "flip" as in rotate).
            MirrorPlane(
                source.bytes(0), source.int32Stride(0), target.y, target.yStride,
                width, orientation.mirrorHeight(height))
            let chroma = source.planes[1]
            return SplitRotateUV(
                source.bytes(1), source.int32Stride(1), target.u, target.uStride, target.v, target.vStride,
                Int32(chroma.width), orientation.sourceHeight(chroma.height), kRotate180) == 0
        }
        return NV12ToI420Rotate(
            source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
            target.y, target.yStride, target.u, target.uStride, target.v, target.vStride,
            width, orientation.sourceHeight(height), rotationMode(orientation.turn)) == 0
    }

    /// Writes a YCbCr `source` into an NV12 `destination` sized for the oriented picture.
    static func yuvToNV12(_ source: CVBuffer, into destination: CVBuffer, _ orientation: Orientation) -> Bool {
        let width = Int32(source.width)
        let height = source.height
        switch (source.format.isBiPlanar, orientation.turn) {
        case (true, .none):
            return NV12Copy(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                width, orientation.sourceHeight(height)) == 0
        case (true, .clockwise180):
            return NV12Mirror(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                width, orientation.mirrorHeight(height)) == 0
        case (false, .none):
            return I420ToNV12(
                source.bytes(0), source.int32Stride(0), source.bytes(1), source.int32Stride(1),
                source.bytes(2), source.int32Stride(2),
                destination.bytes(0), destination.int32Stride(0), destination.bytes(1), destination.int32Stride(1),
                width, orientation.sourceHeight(height)) == 0
        default:
            // Libyuv turns YCbCr only into I420. Luma goes straight into the destination;
            // chroma is turned into scratch planes and then interleaved.
            return ScratchPool.shared.withBuffer(
                format: .yuv420PlanarFullRange, width: destination.width, height: destination.height
            ) { scratch in
                var planes = I420Planes(scratch)
                planes.y = destination.bytes(0)
                planes.yStride = destination.int32Stride(0)
                guard yuvToI420(source, into: planes, orientation) else { return false }
                let chroma = destination.planes[1]
                MergeUVPlane(
                    planes.u, planes.uStride, planes.v, planes.vStride,
                    destination.bytes(1), destination.int32Stride(1), Int32(chroma.width), Int32(chroma.height))
                return true
            }
        }
    }

    /// Writes a BGRA `source` into BGRA memory sized for the oriented picture.
    static func bgra(
        _ source: CVBuffer, into target: UnsafeMutablePointer<UInt8>, stride: Int32, _ orientation: Orientation
    ) -> Bool {
        let width = Int32(source.width)
        let height = source.height
        switch orientation.turn {
        case .none:
            return ARGBCopy(
                source.bytes(0), source.int32Stride(0), target, stride, width, orientation.sourceHeight(height)) == 0
        case .clockwise180:
            return ARGBMirror(
                source.bytes(0), source.int32Stride(0), target, stride, width, orientation.mirrorHeight(height)) == 0
        case .clockwise90, .clockwise270:
            return ARGBRotate(
                source.bytes(0), source.int32Stride(0), target, stride, width, orientation.sourceHeight(height),
                rotationMode(orientation.turn)) == 0
        }
    }
}
