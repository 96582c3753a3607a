import CHeif
import CaptureCore
import Foundation

/// Decodes a HEIC file's primary image (libheif with libde265) into a BGRA buffer, as
/// `JPEGEncoder.decode` does for JPEG: the pixels as stored, EXIF orientation not applied.
/// Thread-safe: each call makes its own libheif context.
package enum HEIFDecoder {
    package static func decode(_ data: Data) throws -> CVPixelBuffer {
        guard let context = heif_context_alloc() else { throw HEIFError.libheif("cannot allocate a context") }
        defer { heif_context_free(context) }
        return try data.withUnsafeBytes { raw -> CVPixelBuffer in
            // libheif reads the bytes in place: they must outlive the context, as they do here.
            try HEIFEncoder.check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil))
            var handle: OpaquePointer?
            try HEIFEncoder.check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw HEIFError.libheif("no primary image") }
            defer { heif_image_handle_release(handle) }
            let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
            // A header may claim any size; refuse what would need over 1 GiB, as JPEG decoding does.
            guard width > 0, height > 0, width * height <= 1 << 28 else { throw HEIFError.unsupportedSize(width: width, height: height) }
            var decoded: OpaquePointer?
            try HEIFEncoder.check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil))
            guard let decoded else { throw HEIFError.libheif("no decoded image") }
            defer { heif_image_release(decoded) }
            var stride: Int32 = 0
            guard let rgba = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
                throw HEIFError.libheif("no interleaved plane")
            }
            let image = CVBuffer(format: .bgra, width: width, height: height)
            let destination = image.planeAddress(0).assumingMemoryBound(to: UInt8.self), destinationStride = image.bytesPerRow(0)
            withExtendedLifetime(image) {
                for row in 0..<height {
                    let source = rgba + row * Int(stride), target = destination + row * destinationStride
                    for column in 0..<width {
                        target[column * 4] = source[column * 4 + 2]
                        target[column * 4 + 1] = source[column * 4 + 1]
                        target[column * 4 + 2] = source[column * 4]
                        target[column * 4 + 3] = 255
                    }
                }
            }
            return image
        }
    }
}
