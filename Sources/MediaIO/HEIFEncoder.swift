import CHeif
import CaptureCore
import Foundation
import ImageOps

/// Compresses pixel buffers to HEIC files (HEVC in HEIF) with EXIF and an optional
/// thumbnail, with libheif and its x265 encoder.
///
/// The picture is stored as 8-bit 4:2:0 Y'CbCr in BT.601 full range, the colour JFIF uses,
/// converted by the same pass as JPEG's (`JPEGYCbCrConverter`), and an nclx colour box says
/// so (BT.709 primaries, sRGB transfer, BT.601 matrix, full range), so decoders need no
/// guess. BGRA and 10-bit buffers are first converted to full-range 8-bit NV12. Calls are
/// thread-safe: each makes its own libheif context.
package enum HEIFEncoder {
    /// How hard x265 works: a trade of encoding time against size at equal quality.
    package enum Effort: String, Sendable {
        /// x265's "ultrafast" preset.
        case fastest = "ultrafast"
        /// x265's "fast" preset.
        case fast = "fast"
        /// x265's "medium" preset.
        case thorough = "medium"
    }

    /// HEVC's level 6.2 limit on either side of a picture, well above any sensor here.
    private static let maximumSide = 16_888

    /// Compresses `buffer` at `quality` (1-100) into a HEIC file. `exif`'s pixel dimensions
    /// are set to the buffer's; `thumbnail`, when given, is stored as the primary image's
    /// thumbnail item (any size and pixel format).
    package static func encode(
        _ buffer: CVPixelBuffer, quality: Int = 90, exif: ExifMetadata?, thumbnail: CVPixelBuffer? = nil, effort: Effort = .fast
    ) throws -> Data {
        guard (1...maximumSide).contains(buffer.width), (1...maximumSide).contains(buffer.height) else {
            throw HEIFError.unsupportedSize(width: buffer.width, height: buffer.height)
        }
        let context = HEIFContext()
        let encoder = try context.encoder(quality: quality, effort: effort)
        defer { heif_encoder_release(encoder) }
        let primary = try encodeImage(buffer, context: context, encoder: encoder)
        defer { heif_image_handle_release(primary) }
        if let thumbnail {
            let handle = try encodeImage(thumbnail, context: context, encoder: encoder)
            defer { heif_image_handle_release(handle) }
            // libheif's public heif_context_assign_thumbnail hands its two handles to the
            // context in the opposite order to its declaration (master, thumbnail), in 1.15
            // and the releases since: the thumbnail goes first. (A handle's thumbnail count
            // is only filled when a file is read, so it cannot be checked here; the tests
            // read the file back with heif-info.)
            try check(heif_context_assign_thumbnail(context.raw, handle, primary))
        }
        if var exif {
            exif.pixelWidth = buffer.width
            exif.pixelHeight = buffer.height
            let tiff = exif.tiffBytes
            try tiff.withUnsafeBytes { try check(heif_context_add_exif_metadata(context.raw, primary, $0.baseAddress, Int32($0.count))) }
        }
        return try context.write()
    }

    /// Encodes one picture into the context and returns its handle (release it).
    private static func encodeImage(
        _ buffer: CVPixelBuffer, context: HEIFContext, encoder: OpaquePointer
    ) throws -> OpaquePointer {
        let image = try withEightBitYUV(buffer) { try makeImage($0) }
        defer { heif_image_release(image) }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context.raw, image, encoder, nil, &handle))
        guard let handle else { throw HEIFError.libheif("no image handle") }
        return handle
    }

    /// Calls `body` with `buffer` itself when it is 8-bit 4:2:0 Y'CbCr, else with a
    /// full-range NV12 copy.
    private static func withEightBitYUV<R>(_ buffer: CVPixelBuffer, _ body: (CVPixelBuffer) throws -> R) throws -> R {
        if buffer.format.isYUV && !buffer.format.isTenBit { return try body(buffer) }
        let copy = CVBuffer(format: .yuv420BiPlanarFullRange, width: buffer.width, height: buffer.height)
        copy.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] = kCVImageBufferYCbCrMatrix_ITU_R_709_2 }
        guard ImageTransform.transform(buffer, into: copy, rotation: .none, mirrored: false) else {
            throw HEIFError.unsupportedPixelFormat("\(buffer.format)")
        }
        return try body(copy)
    }

    /// A libheif image (release it) holding `buffer`'s pixels as JFIF-coloured I420, with
    /// its nclx profile.
    private static func makeImage(_ buffer: CVPixelBuffer) throws -> OpaquePointer {
        let width = buffer.width, height = buffer.height
        var created: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_YCbCr, heif_chroma_420, &created))
        guard let image = created else { throw HEIFError.libheif("no image") }
        do {
            let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
            for (channel, w, h) in [(heif_channel_Y, width, height), (heif_channel_Cb, chromaWidth, chromaHeight), (heif_channel_Cr, chromaWidth, chromaHeight)] {
                try check(heif_image_add_plane(image, channel, Int32(w), Int32(h), 8))
            }
            JPEGYCbCrConverter.withJFIFPlanes(of: buffer) { planes in
                copy(planes.y, stride: planes.lumaStride, rows: height, columns: width, into: image, channel: heif_channel_Y)
                copy(planes.cb, stride: planes.chromaStride, rows: chromaHeight, columns: chromaWidth, into: image, channel: heif_channel_Cb)
                copy(planes.cr, stride: planes.chromaStride, rows: chromaHeight, columns: chromaWidth, into: image, channel: heif_channel_Cr)
            }
            guard let nclx = heif_nclx_color_profile_alloc() else { throw HEIFError.libheif("no colour profile") }
            defer { heif_nclx_color_profile_free(nclx) }
            nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
            nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
            nclx.pointee.full_range_flag = 1
            try check(heif_image_set_nclx_color_profile(image, nclx))
            return image
        } catch {
            heif_image_release(image)
            throw error
        }
    }

    private static func copy(
        _ source: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int, columns: Int, into image: OpaquePointer, channel: heif_channel
    ) {
        var destinationStride: Int32 = 0
        guard let destination = heif_image_get_plane(image, channel, &destinationStride) else { return }
        for row in 0..<rows {
            (destination + row * Int(destinationStride)).update(from: source + row * stride, count: columns)
        }
    }

    /// Throws libheif's message when `error` is not `heif_error_Ok`.
    static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw HEIFError.libheif(error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
    }
}

/// One libheif context, freed with its owner.
private final class HEIFContext {
    let raw: OpaquePointer

    init() {
        // heif_context_alloc fails only when memory is exhausted.
        guard let context = heif_context_alloc() else { fatalError("libheif: cannot allocate a context") }
        raw = context
    }

    deinit { heif_context_free(raw) }

    /// The HEVC encoder (release it), set for `quality` and `effort`.
    func encoder(quality: Int, effort: HEIFEncoder.Effort) throws -> OpaquePointer {
        var found: OpaquePointer?
        try HEIFEncoder.check(heif_context_get_encoder_for_format(raw, heif_compression_HEVC, &found))
        guard let encoder = found else { throw HEIFError.noHEVCEncoder }
        do {
            try HEIFEncoder.check(heif_encoder_set_lossy_quality(encoder, Int32(min(max(quality, 1), 100))))
            try HEIFEncoder.check(heif_encoder_set_parameter_string(encoder, "preset", effort.rawValue))
        } catch {
            heif_encoder_release(encoder)
            throw error
        }
        return encoder
    }

    /// The file's bytes.
    func write() throws -> Data {
        var output = oc_heif_output(bytes: nil, count: 0, failed: 0)
        defer { free(output.bytes) }
        try HEIFEncoder.check(oc_heif_write_to_memory(raw, &output))
        guard output.failed == 0, let bytes = output.bytes else { throw HEIFError.libheif("nothing written") }
        return PageData.make(count: output.count) { $0.copyMemory(from: bytes, byteCount: output.count) }
    }
}

/// Why a HEIC file could not be made.
package enum HEIFError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedPixelFormat(String)
    case unsupportedSize(width: Int, height: Int)
    /// libheif was built without an HEVC encoder (Debian's links x265).
    case noHEVCEncoder
    /// libheif reported an error; the message is its own.
    case libheif(String)

    package var description: String {
        switch self {
        case .unsupportedPixelFormat(let format): "HEIF: unsupported pixel format \(format)"
        case .unsupportedSize(let width, let height): "HEIF: unsupported size \(width)x\(height)"
        case .noHEVCEncoder: "HEIF: libheif has no HEVC encoder"
        case .libheif(let message): "HEIF: \(message)"
        }
    }
}
