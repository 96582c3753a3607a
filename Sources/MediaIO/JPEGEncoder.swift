import CTurboJPEG
import CaptureCore
import Foundation

/// Compresses pixel buffers to JPEG files with EXIF, and decodes JPEG files to BGRA, with
/// libjpeg-turbo's TurboJPEG API.
///
/// Output is baseline JPEG with 4:2:0 chroma, Y'CbCr in JFIF's BT.601 full range whatever
/// the source's range and matrix, and an APP1 "Exif" segment right after SOI in place of
/// TurboJPEG's JFIF APP0 segment. Calls are thread-safe: each makes its own TurboJPEG instance.
package enum JPEGEncoder {
    /// JPEG's limit on either side of a picture.
    private static let maximumSide = 65_535

    /// Compresses `buffer` ('BGRA', '420v', '420f', 'y420' or 'f420') at `quality` (1-100).
    ///
    /// BGRA goes straight to TurboJPEG, which converts to Y'CbCr itself. Y'CbCr buffers are
    /// first rewritten into a full-range BT.601 I420 scratch buffer (see `JPEGYCbCrConverter`),
    /// then compressed from those planes without another colour conversion. `exif`'s pixel
    /// dimensions are set to the buffer's, since EXIF requires them to match the image.
    ///
    /// `thumbnail` (any size; with `exif` only) goes into the EXIF block's IFD1 as a JPEG
    /// of quality `thumbnailQuality`; EXIF's one APP1 segment limits it to about 64 KB.
    package static func encode(
        _ buffer: CVPixelBuffer, quality: Int = 90, exif: ExifMetadata?, thumbnail: CVPixelBuffer? = nil, thumbnailQuality: Int = 75
    ) throws -> Data {
        guard (1...maximumSide).contains(buffer.width), (1...maximumSide).contains(buffer.height) else {
            throw JPEGError.unsupportedSize(width: buffer.width, height: buffer.height)
        }
        var exif = exif
        exif?.pixelWidth = buffer.width
        exif?.pixelHeight = buffer.height
        let thumbnailJPEG = try thumbnail.map { [UInt8](try encode($0, quality: thumbnailQuality, exif: nil)) }
        // Built first so an oversized EXIF block fails before the expensive part.
        let tiff = exif?.tiffBytes(thumbnailJPEG: thumbnailJPEG)
        if let tiff, tiff.count > JPEGSegments.maximumTIFFSize { throw JPEGError.exifTooLarge(bytes: tiff.count) }
        let quality = Int32(min(max(quality, 1), 100))
        let compressor = try JPEGTurboHandle(.compressor)
        if buffer.format == .bgra {
            return try compressBGRA(buffer, quality: quality, compressor: compressor, tiff: tiff)
        }
        return try JPEGYCbCrConverter.withJFIFPlanes(of: buffer) { planes in
            try compressPlanes(planes, width: buffer.width, height: buffer.height, quality: quality, compressor: compressor, tiff: tiff)
        }
    }

    /// Decodes a JPEG file into a new BGRA buffer (alpha 255). EXIF orientation is not applied:
    /// the pixels come out as stored. A truncated or corrupt file throws (libjpeg-turbo's
    /// warnings stop the decode), rather than coming back with grey where data was missing.
    /// Scene pictures use `PictureDecoder`, which also bounds the size.
    package static func decode(_ data: Data) throws -> CVPixelBuffer {
        let decompressor = try JPEGTurboHandle(.decompressor)
        return try data.withUnsafeBytes { raw -> CVPixelBuffer in
            guard let jpeg = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count >= 4 else { throw JPEGError.notJPEG }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(decompressor.raw, jpeg, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0
            else { throw JPEGError.turboJPEG(decompressor.errorMessage) }
            // A header may claim any size up to 65535 squared; refuse what would need over 1 GiB.
            guard width > 0, height > 0, Int(width) * Int(height) <= 1 << 28 else {
                throw JPEGError.unsupportedSize(width: Int(width), height: Int(height))
            }
            let image = CVBuffer(format: .bgra, width: Int(width), height: Int(height))
            let status = withExtendedLifetime(image) {
                tjDecompress2(
                    decompressor.raw, jpeg, UInt(raw.count), image.planeAddress(0).assumingMemoryBound(to: UInt8.self),
                    width, Int32(image.bytesPerRow(0)), height, Int32(TJPF_BGRA.rawValue), TJFLAG_STOPONWARNING)
            }
            guard status == 0 else { throw JPEGError.turboJPEG(decompressor.errorMessage) }
            return image
        }
    }

    private static func compressBGRA(_ buffer: CVPixelBuffer, quality: Int32, compressor: JPEGTurboHandle, tiff: [UInt8]?) throws -> Data {
        try withExtendedLifetime(buffer) {
            try compress(compressor, width: buffer.width, height: buffer.height, tiff: tiff) { output, size in
                tjCompress2(
                    compressor.raw, buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self), Int32(buffer.width),
                    Int32(buffer.bytesPerRow(0)), Int32(buffer.height), Int32(TJPF_BGRA.rawValue),
                    output, size, Int32(TJSAMP_420.rawValue), quality, TJFLAG_NOREALLOC)
            }
        }
    }

    private static func compressPlanes(
        _ planes: JPEGYCbCrConverter.Planes, width: Int, height: Int, quality: Int32, compressor: JPEGTurboHandle, tiff: [UInt8]?
    ) throws -> Data {
        var pointers: [UnsafePointer<UInt8>?] = [UnsafePointer(planes.y), UnsafePointer(planes.cb), UnsafePointer(planes.cr)]
        let strides = [planes.lumaStride, planes.chromaStride, planes.chromaStride].map { Int32($0) }
        return try compress(compressor, width: width, height: height, tiff: tiff) { output, size in
            tjCompressFromYUVPlanes(
                compressor.raw, &pointers, Int32(width), strides, Int32(height), Int32(TJSAMP_420.rawValue),
                output, size, quality, TJFLAG_NOREALLOC)
        }
    }

    /// Runs a TurboJPEG compression `call` (with `TJFLAG_NOREALLOC`) into a worst-case
    /// buffer for a `width`×`height` 4:2:0 picture, then returns that output with the EXIF
    /// segment in place.
    ///
    /// Both buffers are page-mapped (`PageMemory`, `PageData`): left to itself TurboJPEG
    /// grows its output by doubling with malloc, and each freed step raised glibc's mmap
    /// threshold, so photos fragmented the heaps. The worst-case buffer costs only the pages
    /// the JPEG really fills.
    private static func compress(
        _ compressor: JPEGTurboHandle, width: Int, height: Int, tiff: [UInt8]?,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<UInt>) -> Int32
    ) throws -> Data {
        let capacity = Int(tjBufSize(Int32(width), Int32(height), Int32(TJSAMP_420.rawValue)))
        let scratch = PageMemory.allocate(byteCount: capacity)
        defer { PageMemory.deallocate(scratch, byteCount: capacity) }
        var output: UnsafeMutablePointer<UInt8>? = scratch.assumingMemoryBound(to: UInt8.self)
        var size = UInt(capacity)
        guard call(&output, &size) == 0, let output, UnsafeMutableRawPointer(output) == scratch else {
            throw JPEGError.turboJPEG(compressor.errorMessage)
        }
        let jpeg = UnsafeRawBufferPointer(start: output, count: Int(size))
        guard let tiff else {
            return PageData.make(count: jpeg.count) { $0.copyMemory(from: jpeg.baseAddress!, byteCount: jpeg.count) }
        }
        return try JPEGSegments.inserting(exifTIFF: tiff, into: jpeg)
    }
}
