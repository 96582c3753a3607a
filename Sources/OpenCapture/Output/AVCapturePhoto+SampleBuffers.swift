import Foundation
import MediaIO

/// Photos as the CMSampleBuffers of the iOS 10 API (the deprecated delegate callbacks,
/// `AVCaptureStillImageOutput`, the class methods that repackage them).
extension AVCapturePhoto {
    /// The processed photo as a sample buffer: its pixel buffer for uncompressed settings,
    /// the JPEG file's bytes (with EXIF) for JPEG ones. Nil for HEIC, a file container the
    /// sample-buffer API never carried (as on iOS), and for a failed capture.
    var processedSampleBuffer: CMSampleBuffer? {
        if let pixels = pixelBuffer {
            return CMSampleBuffer(
                imageBuffer: pixels, formatDescription: CMFormatDescription(videoFormat: pixels.format.rawValue, width: pixels.width, height: pixels.height),
                presentationTimeStamp: timestamp, duration: .invalid)
        }
        guard source?.codec == .jpeg, let jpeg = fileDataRepresentation() else { return nil }
        let size = resolvedSettings.photoDimensions
        return Self.dataSampleBuffer(jpeg, subtype: kCMVideoCodecType_JPEG, width: Int(size.width), height: Int(size.height), time: timestamp)
    }

    /// The raw photo as a sample buffer: the DNG file's bytes under a format description of
    /// the raw pixel format (its image buffer is nil), so that
    /// `AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer:previewPhotoSampleBuffer:)`
    /// gives the DNG back; the mosaic itself is the photo's Bayer `pixelBuffer`.
    var rawSampleBuffer: CMSampleBuffer? {
        guard isRawPhoto, let dng = fileDataRepresentation() else { return nil }
        let size = resolvedSettings.rawPhotoDimensions
        // The mosaic's own layout ('grb4' for a GRBG sensor), as the settings asked for it.
        let subtype = pixelBuffer.map { CVPixelBufferGetPixelFormatType($0) } ?? kCVPixelFormatType_14Bayer_RGGB
        return Self.dataSampleBuffer(dng, subtype: subtype, width: Int(size.width), height: Int(size.height), time: timestamp)
    }

    /// The preview as a sample buffer (no metadata, as on iOS).
    var previewSampleBuffer: CMSampleBuffer? {
        guard let preview = previewPixelBuffer else { return nil }
        return CMSampleBuffer(
            imageBuffer: preview, formatDescription: CMFormatDescription(videoFormat: preview.format.rawValue, width: preview.width, height: preview.height),
            presentationTimeStamp: timestamp, duration: .invalid)
    }

    static func dataSampleBuffer(_ data: Data, subtype: FourCharCode, width: Int, height: Int, time: CMTime) -> CMSampleBuffer? {
        guard let block = CMBlockBuffer(allocating: data.count) else { return nil }
        let status = data.withUnsafeBytes { bytes in
            block.forEachRun(offset: 0, length: bytes.count) { pointer, length, done in
                pointer.copyMemory(from: bytes.baseAddress!.advanced(by: done), byteCount: length)
            }
        }
        guard status == noErr else { return nil }
        let format = CMFormatDescription(videoFormat: subtype, width: width, height: height)
        return CMSampleBuffer(dataBuffer: block, formatDescription: format, sampleCount: 1, presentationTimeStamp: time)
    }
}

extension CMSampleBuffer {
    /// The bytes of a sample buffer's data buffer; nil without one.
    var dataBytes: Data? {
        guard let block = CMSampleBufferGetDataBuffer(self) else { return nil }
        var data = Data(count: block.dataLength)
        let status = data.withUnsafeMutableBytes { bytes in
            block.forEachRun(offset: 0, length: bytes.count) { pointer, length, done in
                bytes.baseAddress!.advanced(by: done).copyMemory(from: pointer, byteCount: length)
            }
        }
        return status == noErr ? data : nil
    }
}

extension AVCapturePhotoOutput {
    @available(*, deprecated, message: "Use -[AVCapturePhoto fileDataRepresentation]")
    class func jpegPhotoDataRepresentationBacking(forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? {
        guard CMSampleBufferGetFormatDescription(JPEGSampleBuffer)?.mediaSubType.rawValue == kCMVideoCodecType_JPEG,
            let jpeg = JPEGSampleBuffer.dataBytes
        else { return nil }
        guard let preview = previewPhotoSampleBuffer.flatMap(CMSampleBufferGetImageBuffer) else { return jpeg }
        let exif = ExifMetadata(jpeg: jpeg) ?? ExifMetadata()
        let photo = CMVideoDimensions(width: Int32(preview.width), height: Int32(preview.height))
        let size = PhotoDerivatives.size(photo: photo, requested: nil, defaultLongSide: PhotoDerivatives.thumbnailLongSide)
        guard let thumbnail = PhotoDerivatives.scaled(preview, to: size, format: preview.format),
            let thumbnailJPEG = try? JPEGEncoder.encode(thumbnail, quality: 75, exif: nil)
        else { return nil }
        return try? JPEGSegments.replacingExif(tiff: exif.tiffBytes(thumbnailJPEG: [UInt8](thumbnailJPEG)), in: jpeg)
    }

    @available(*, deprecated, message: "Use -[AVCapturePhoto fileDataRepresentation]")
    class func dngPhotoDataRepresentationBacking(forRawSampleBuffer rawSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? {
        guard let subtype = CMSampleBufferGetFormatDescription(rawSampleBuffer)?.mediaSubType.rawValue, isBayerRAWPixelFormat(subtype),
            let dng = rawSampleBuffer.dataBytes, dng.count > 8, dng.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00])
        else { return nil }
        return dng
    }
}
