import CTurboJPEG
import CYUV
import CaptureCore

/// Turns one frame in a device's pixel format into one of ours, with libyuv (and
/// libjpeg-turbo for Motion JPEG).
///
/// V4L2's default Y'CbCr encoding for camera (sRGB) formats is BT.601 limited range, so
/// every conversion here uses BT.601: video-range outputs from Y'CbCr sources are repacks
/// that keep the samples, full-range and BGRA outputs go through libyuv's BT.601 matrices,
/// and the buffers are tagged `ITU_R_601_4`.
package final class V4L2FrameConverter: @unchecked Sendable {
    package let source: V4L2PixelCode
    package let width: Int
    package let height: Int
    /// The source's row stride (bytes per line of the first plane).
    package let sourceStride: Int
    // Scratch for two-step conversions (BGRA, then the target), made once.
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var jpeg: OpaquePointer?

    package init(source: V4L2PixelCode, width: Int, height: Int, sourceStride: Int) {
        self.source = source
        self.width = width
        self.height = height
        self.sourceStride = sourceStride
    }

    deinit {
        scratch?.deallocate()
        if let jpeg { tjDestroy(UnsafeMutableRawPointer(jpeg)) }
    }

    /// Converts `bytes` bytes at `data` into `output`; false if the frame is malformed (a
    /// short buffer or undecodable JPEG), which the stream reports as a lost frame.
    package func convert(_ data: UnsafeRawPointer, bytes: Int, into output: CVBuffer) -> Bool {
        let needed = source == .mjpeg ? 2 : minimumBytes
        guard bytes >= needed else { return false }
        let src = data.assumingMemoryBound(to: UInt8.self)
        switch (source, output.format) {
        case (.yuyv, .yuv420BiPlanarVideoRange), (.uyvy, .yuv420BiPlanarVideoRange):
            let convert = source == .yuyv ? YUY2ToNV12 : UYVYToNV12
            return convert(src, Int32(sourceStride), y(output), stride(output, 0), plane(output, 1), stride(output, 1), Int32(width), Int32(height)) == 0
        case (.yuyv, .yuv420PlanarVideoRange), (.uyvy, .yuv420PlanarVideoRange):
            let convert = source == .yuyv ? YUY2ToI420 : UYVYToI420
            return convert(
                src, Int32(sourceStride), y(output), stride(output, 0), plane(output, 1), stride(output, 1), plane(output, 2),
                stride(output, 2), Int32(width), Int32(height)) == 0
        case (.nv12, .yuv420BiPlanarVideoRange):
            copyPlanes(src, into: output)
            return true
        case (.nv12, .yuv420PlanarVideoRange):
            return NV12ToI420(
                src, Int32(sourceStride), src + sourceStride * height, Int32(sourceStride), y(output), stride(output, 0),
                plane(output, 1), stride(output, 1), plane(output, 2), stride(output, 2), Int32(width), Int32(height)) == 0
        case (.yu12, .yuv420PlanarVideoRange):
            copyPlanes(src, into: output)
            return true
        case (.yu12, .yuv420BiPlanarVideoRange):
            let (u, v) = yu12Chroma(src)
            return I420ToNV12(
                src, Int32(sourceStride), u, Int32(sourceStride / 2), v, Int32(sourceStride / 2), y(output), stride(output, 0),
                plane(output, 1), stride(output, 1), Int32(width), Int32(height)) == 0
        default:
            // Everything else goes through BGRA: straight there for BGRA output, then
            // libyuv's BT.601 matrices for Y'CbCr output (full range: the JPEG "J" matrix).
            if output.format == .bgra { return toBGRA(src, bytes: bytes, y(output), stride(output, 0)) }
            let scratch = scratchBGRA()
            guard toBGRA(src, bytes: bytes, scratch, Int32(width * 4)) else { return false }
            return fromBGRA(scratch, into: output)
        }
    }

    /// The bytes a full frame of an uncompressed format takes.
    private var minimumBytes: Int {
        switch source {
        case .nv12, .yu12: sourceStride * height * 3 / 2
        case .yuyv, .uyvy, .rgb24, .bgr24: sourceStride * height
        case .mjpeg: 2
        }
    }

    private func toBGRA(_ src: UnsafePointer<UInt8>, bytes: Int, _ dst: UnsafeMutablePointer<UInt8>, _ dstStride: Int32) -> Bool {
        let w = Int32(width), h = Int32(height), s = Int32(sourceStride)
        switch source {
        case .yuyv: return YUY2ToARGB(src, s, dst, dstStride, w, h) == 0
        case .uyvy: return UYVYToARGB(src, s, dst, dstStride, w, h) == 0
        case .nv12: return NV12ToARGB(src, s, src + sourceStride * height, s, dst, dstStride, w, h) == 0
        case .yu12:
            let (u, v) = yu12Chroma(src)
            return I420ToARGB(src, s, u, s / 2, v, s / 2, dst, dstStride, w, h) == 0
        // libyuv names formats by little-endian word order: its "RAW" is R, G, B in memory
        // (V4L2's RGB24) and its "RGB24" is B, G, R (V4L2's BGR24).
        case .rgb24: return RAWToARGB(src, s, dst, dstStride, w, h) == 0
        case .bgr24: return RGB24ToARGB(src, s, dst, dstStride, w, h) == 0
        case .mjpeg: return decodeJPEG(src, bytes: bytes, dst, dstStride)
        }
    }

    private func fromBGRA(_ bgra: UnsafeMutablePointer<UInt8>, into output: CVBuffer) -> Bool {
        let w = Int32(width), h = Int32(height), s = Int32(width * 4)
        switch output.format {
        case .yuv420BiPlanarVideoRange:
            return ARGBToNV12(bgra, s, y(output), stride(output, 0), plane(output, 1), stride(output, 1), w, h) == 0
        case .yuv420PlanarVideoRange:
            return ARGBToI420(bgra, s, y(output), stride(output, 0), plane(output, 1), stride(output, 1), plane(output, 2), stride(output, 2), w, h) == 0
        case .yuv420PlanarFullRange:
            return ARGBToJ420(bgra, s, y(output), stride(output, 0), plane(output, 1), stride(output, 1), plane(output, 2), stride(output, 2), w, h) == 0
        case .yuv420BiPlanarFullRange:
            // J420 into the luma plane and two half-size planes borrowed from the scratch
            // buffer's tail, then interleave the chroma.
            let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
            let u = bgra + width * height * 4
            let v = u + chromaWidth * chromaHeight
            guard ARGBToJ420(bgra, s, y(output), stride(output, 0), u, Int32(chromaWidth), v, Int32(chromaWidth), w, h) == 0 else { return false }
            MergeUVPlane(u, Int32(chromaWidth), v, Int32(chromaWidth), plane(output, 1), stride(output, 1), Int32(chromaWidth), Int32(chromaHeight))
            return true
        case .bgra:
            return ARGBCopy(bgra, s, y(output), stride(output, 0), w, h) == 0
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange, .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14,
            .disparityFloat16, .disparityFloat32, .depthFloat16, .depthFloat32, .oneComponent8:
            return false  // V4L2Stream converts into 8-bit pictures only
        }
    }

    private func decodeJPEG(_ src: UnsafePointer<UInt8>, bytes: Int, _ dst: UnsafeMutablePointer<UInt8>, _ dstStride: Int32) -> Bool {
        if jpeg == nil { jpeg = OpaquePointer(tjInitDecompress()) }
        guard let jpeg else { return false }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let handle = UnsafeMutableRawPointer(jpeg)
        guard tjDecompressHeader3(handle, src, UInt(bytes), &w, &h, &subsampling, &colorspace) == 0,
              Int(w) == width, Int(h) == height
        else { return false }
        return tjDecompress2(handle, src, UInt(bytes), dst, w, dstStride, h, Int32(TJPF_BGRA.rawValue), Int32(TJFLAG_FASTDCT)) == 0
    }

    private func yu12Chroma(_ src: UnsafePointer<UInt8>) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
        let u = src + sourceStride * height
        return (u, u + (sourceStride / 2) * ((height + 1) / 2))
    }

    /// Same layout, different strides: copy plane by plane.
    private func copyPlanes(_ src: UnsafePointer<UInt8>, into output: CVBuffer) {
        var offset = 0
        for index in output.planes.indices {
            let geometry = output.planes[index]
            let rowBytes = output.format == .yuv420BiPlanarVideoRange && index == 1 ? geometry.width * 2 : geometry.width
            let srcStride = index == 0 || output.format == .yuv420BiPlanarVideoRange ? sourceStride : sourceStride / 2
            CopyPlane(src + offset, Int32(srcStride), plane(output, index), stride(output, index), Int32(rowBytes), Int32(geometry.height))
            offset += srcStride * geometry.height
        }
    }

    private func scratchBGRA() -> UnsafeMutablePointer<UInt8> {
        if let scratch { return scratch }
        // BGRA frame plus room for two chroma planes (see the full-range NV12 case).
        let made = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 4 + 2 * ((width + 1) / 2) * ((height + 1) / 2))
        scratch = made
        return made
    }

    private func y(_ buffer: CVBuffer) -> UnsafeMutablePointer<UInt8> { plane(buffer, 0) }
    private func plane(_ buffer: CVBuffer, _ index: Int) -> UnsafeMutablePointer<UInt8> {
        buffer.planeAddress(index).assumingMemoryBound(to: UInt8.self)
    }
    private func stride(_ buffer: CVBuffer, _ index: Int) -> Int32 { Int32(buffer.bytesPerRow(index)) }
}
