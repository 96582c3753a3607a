import CYUV
import CaptureCore

// Raw plane access for libyuv calls. The pointers stay valid only while the buffer that
// owns the memory is alive, so every entry point keeps its buffers alive with
// `withExtendedLifetime` for as long as it uses them.

extension PixelFormat {
    /// NV12 layout: a luma plane and one interleaved CbCr plane.
    var isBiPlanar: Bool { planeCount == 2 }
    /// I420 layout: luma, Cb and Cr planes.
    var isTriPlanar: Bool { planeCount == 3 }
}

extension CVBuffer {
    /// Plane `index` as bytes.
    func bytes(_ index: Int) -> UnsafeMutablePointer<UInt8> {
        planeAddress(index).assumingMemoryBound(to: UInt8.self)
    }

    /// Bytes per row of plane `index`, as libyuv takes it.
    func int32Stride(_ index: Int) -> Int32 { Int32(bytesPerRow(index)) }
}

/// Where an I420 picture lives: three planes that need not belong to the same buffer,
/// so a luma plane can be written straight into a destination while chroma goes to scratch.
struct I420Planes {
    var y: UnsafeMutablePointer<UInt8>
    var yStride: Int32
    var u: UnsafeMutablePointer<UInt8>
    var uStride: Int32
    var v: UnsafeMutablePointer<UInt8>
    var vStride: Int32

    /// The planes of a buffer in I420 layout ('y420' or 'f420').
    init(_ buffer: CVBuffer) {
        precondition(buffer.format.isTriPlanar, "I420Planes needs a three-plane buffer")
        y = buffer.bytes(0)
        yStride = buffer.int32Stride(0)
        u = buffer.bytes(1)
        uStride = buffer.int32Stride(1)
        v = buffer.bytes(2)
        vStride = buffer.int32Stride(2)
    }
}

/// Libyuv's rotation mode for a clockwise turn.
func rotationMode(_ turn: Rotation) -> RotationMode {
    switch turn {
    case .none: kRotate0
    case .clockwise90: kRotate90
    case .clockwise180: kRotate180
    case .clockwise270: kRotate270
    }
}
