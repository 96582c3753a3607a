import CRenderKernels
import CaptureCore

/// Rewrites a 4:2:0 Y'CbCr picture in JFIF's colour: full range with the BT.601 matrix,
/// as three planes (I420), ready for TurboJPEG's planar compressor.
///
/// Why not hand the camera's planes over as they are: JFIF defines its Y'CbCr as BT.601
/// full range, and every decoder converts with that matrix. OpenCapture's buffers are
/// BT.709 (unless tagged BT.601) and '420v'/'y420' are video range, so samples passed
/// through unchanged decode with washed-out contrast and shifted colours: a BT.709 red of
/// (200, 40, 40) comes back as about (186, 23, 42), purer colours are further off.
/// `ImageTransform` can de-interleave and expand the range but keeps the matrix, so one
/// pass here does all three, in 16.16 fixed point.
///
/// Changing the matrix mixes some chroma into luma. Chroma exists once per 2x2 block, so
/// all four luma samples of a block get their block's correction; inside flat areas that
/// is exact, and at colour edges it is as sharp as the chroma itself.
struct JPEGYCbCrConverter {
    /// Converted planes, valid inside `withJFIFPlanes` only.
    ///
    /// The luma plane covers the picture rounded up to even sides, because TurboJPEG reads
    /// whole 2x2 blocks; an extra column or row repeats the edge.
    struct Planes {
        let y: UnsafeMutablePointer<UInt8>
        let cb: UnsafeMutablePointer<UInt8>
        let cr: UnsafeMutablePointer<UInt8>
        let lumaStride: Int
        let chromaStride: Int
    }

    /// Every output is affine in the source samples, so the conversion is a few
    /// multiply-adds in 16.16 fixed point (in the kernels `oc_jfif_chroma_row` and
    /// `oc_jfif_luma_row`): arithmetic rather than table lookups lets the compiler vectorise.
    private struct Affine {
        let perCb: Int32
        let perCr: Int32
        let constant: Int32
    }

    /// Luma is `sample * lumaScale` plus its block's correction, an affine map of Cb and Cr
    /// that carries the matrix change and the range offset.
    private let lumaScale: Int32
    private let lumaCorrection: Affine
    private let cbOut: Affine
    private let crOut: Affine

    /// A converter for sources of this range and matrix (luma weights of red and blue).
    init(videoRange: Bool, sourceKr: Double, sourceKb: Double) {
        // The conversion is linear and leaves greys alone, so its columns for Cb and Cr
        // are the BT.601 values of a unit Cb and a unit Cr.
        let fromCb = Self.recode(cb: 1, cr: 0, kr: sourceKr, kb: sourceKb)
        let fromCr = Self.recode(cb: 0, cr: 1, kr: sourceKr, kb: sourceKb)
        let lumaGain = videoRange ? 255.0 / 219 : 1
        let chromaGain = videoRange ? 255.0 / 224 : 1
        func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
        // An output of raw samples: weights per Cb and Cr step, minus the weights at the
        // chroma zero (128), plus `offset`. The 0.5s round the final shift right by 16.
        func affine(_ weightCb: Double, _ weightCr: Double, offset: Double) -> Affine {
            let (cb, cr) = (weightCb * chromaGain, weightCr * chromaGain)
            return Affine(perCb: fixed(cb), perCr: fixed(cr), constant: fixed(offset - 128 * (cb + cr)))
        }
        lumaScale = fixed(lumaGain)
        lumaCorrection = affine(fromCb.y, fromCr.y, offset: (videoRange ? -16 * lumaGain : 0) + 0.5)
        cbOut = affine(fromCb.cb, fromCr.cb, offset: 128.5)
        crOut = affine(fromCb.cr, fromCr.cr, offset: 128.5)
    }

    /// The converter for a buffer: its range from the pixel format, its matrix from the
    /// `kCVImageBufferYCbCrMatrixKey` attachment (BT.709 when absent, as everywhere in OpenCapture).
    init(for buffer: CVPixelBuffer) {
        let matrix = buffer.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] as? String }
        let isBT601 = matrix == kCVImageBufferYCbCrMatrix_ITU_R_601_4
        self.init(videoRange: !buffer.format.isFullRange, sourceKr: isBT601 ? 0.299 : 0.2126, sourceKb: isBT601 ? 0.114 : 0.0722)
    }

    /// BT.601 (Y', Cb, Cr) of a source-matrix colour with Y' = 0, all in full-range code units.
    private static func recode(cb: Double, cr: Double, kr: Double, kb: Double) -> (y: Double, cb: Double, cr: Double) {
        let red = 2 * (1 - kr) * cr
        let blue = 2 * (1 - kb) * cb
        let green = -(kr * red + kb * blue) / (1 - kr - kb)
        let luma = 0.299 * red + 0.587 * green + 0.114 * blue
        return (luma, (blue - luma) / 1.772, (red - luma) / 1.402)
    }

    /// Converts `source` (any 4:2:0 Y'CbCr format) into scratch planes that live for the
    /// duration of `body`.
    ///
    /// The scratch is page-mapped memory (`PageMemory`) rather than a `CVBuffer`: the 18 MB
    /// of a 12 MP photo go back to the kernel afterwards instead of fragmenting malloc's
    /// heaps, and the kernel's zero pages cost no pass of their own.
    static func withJFIFPlanes<R>(of source: CVPixelBuffer, _ body: (Planes) throws -> R) rethrows -> R {
        precondition(source.format.isYUV, "4:2:0 Y'CbCr in")
        let chroma = source.planes[1]
        let lumaStride = CVBuffer.aligned(2 * chroma.width)
        let chromaStride = CVBuffer.aligned(chroma.width)
        let lumaBytes = lumaStride * 2 * chroma.height
        let chromaBytes = chromaStride * chroma.height
        let memory = PageMemory.allocate(byteCount: lumaBytes + 2 * chromaBytes, alignment: CVBuffer.alignment)
        defer { PageMemory.deallocate(memory, byteCount: lumaBytes + 2 * chromaBytes) }
        let bytes = memory.bindMemory(to: UInt8.self, capacity: lumaBytes + 2 * chromaBytes)
        let planes = Planes(
            y: bytes, cb: bytes + lumaBytes, cr: bytes + lumaBytes + chromaBytes,
            lumaStride: lumaStride, chromaStride: chromaStride)
        withExtendedLifetime(source) { JPEGYCbCrConverter(for: source).convert(source, into: planes) }
        return try body(planes)
    }

    private func convert(_ source: CVPixelBuffer, into planes: Planes) {
        let chroma = source.planes[1]
        // Luma corrections of the current chroma row, one per 2x2 block.
        var corrections = [Int32](repeating: 0, count: chroma.width)
        corrections.withUnsafeMutableBufferPointer { corrections in
            for chromaRow in 0..<chroma.height {
                convertChromaRow(chromaRow, source, planes, corrections)
                for lumaRow in 2 * chromaRow...2 * chromaRow + 1 {
                    // An odd height repeats the last row into the block's second one.
                    let input = bytes(source, plane: 0, row: min(lumaRow, source.height - 1))
                    convertLumaRow(input, width: source.width, into: planes.y + lumaRow * planes.lumaStride, corrections)
                }
            }
        }
    }

    /// One chroma row through `oc_jfif_chroma_row` (a C kernel: per sample in Swift a debug
    /// build took seconds on a 12 MP photo, issue 30).
    private func convertChromaRow(
        _ row: Int, _ source: CVPixelBuffer, _ planes: Planes, _ corrections: UnsafeMutableBufferPointer<Int32>
    ) {
        let cbOut = planes.cb + row * planes.chromaStride
        let crOut = planes.cr + row * planes.chromaStride
        let k = [lumaCorrection, self.cbOut, self.crOut].flatMap { [$0.perCb, $0.perCr, $0.constant] }
        let (cb, cr, step) =
            source.format.planeCount == 2
            ? (bytes(source, plane: 1, row: row), bytes(source, plane: 1, row: row) + 1, 2)
            : (bytes(source, plane: 1, row: row), bytes(source, plane: 2, row: row), 1)
        k.withUnsafeBufferPointer { k in
            oc_jfif_chroma_row(cb, cr, step, corrections.count, k.baseAddress, corrections.baseAddress, cbOut, crOut)
        }
    }

    /// Writes one luma row, two samples per correction; an odd width repeats its last sample.
    private func convertLumaRow(
        _ input: UnsafeMutablePointer<UInt8>, width: Int, into output: UnsafeMutablePointer<UInt8>,
        _ corrections: UnsafeMutableBufferPointer<Int32>
    ) {
        oc_jfif_luma_row(input, width, lumaScale, corrections.baseAddress, output)
    }

    private func bytes(_ buffer: CVPixelBuffer, plane: Int, row: Int) -> UnsafeMutablePointer<UInt8> {
        (buffer.planeAddress(plane) + row * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self)
    }
}
