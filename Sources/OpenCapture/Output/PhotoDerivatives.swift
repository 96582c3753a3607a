import Foundation
import ImageOps

/// The smaller pictures made from a photo: the embedded thumbnail and the preview.
enum PhotoDerivatives {
    /// The long side of a thumbnail when the format names no size: EXIF's thumbnail must
    /// fit its 64 KB segment, which a 320-pixel JPEG does.
    static let thumbnailLongSide = 320
    /// The long side of a preview when the format names no size (there is no display to
    /// match, as iOS does).
    static let previewLongSide = 640

    /// The size of a derivative of a `photo`-sized picture, as Apple documents it: the
    /// larger of the requested width and height is honoured as the long side, the photo's
    /// aspect ratio is kept, and it is never larger than the photo; sides are even.
    static func size(photo: CMVideoDimensions, requested: (width: Int, height: Int)?, defaultLongSide: Int) -> CMVideoDimensions {
        let photoLong = Int(max(photo.width, photo.height)), photoShort = Int(min(photo.width, photo.height))
        let long = min(requested.map { max($0.width, $0.height) } ?? defaultLongSide, photoLong)
        let short = max(1, Int((Double(long) * Double(photoShort) / Double(max(photoLong, 1))).rounded()))
        func even(_ side: Int) -> Int32 { Int32(max(2, side - side % 2)) }
        return photo.width >= photo.height
            ? CMVideoDimensions(width: even(long), height: even(short)) : CMVideoDimensions(width: even(short), height: even(long))
    }

    /// The width and height keys of a format dictionary: both, or neither (nil).
    static func requestedSize(_ format: [String: Any], widthKey: String, heightKey: String) -> (width: Int, height: Int)? {
        guard let width = integer(format[widthKey]), let height = integer(format[heightKey]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// `buffer` scaled to `size` and converted to `format`; nil if the conversion fails.
    static func scaled(_ buffer: CVPixelBuffer, to size: CMVideoDimensions, format: PixelFormat) -> CVPixelBuffer? {
        let attachments = buffer.attachmentStore.withLock { $0 }
        let scaled = CVBuffer(format: buffer.format, width: Int(size.width), height: Int(size.height))
        scaled.attachmentStore.withLock { $0 = attachments }
        guard ImageTransform.scale(buffer, into: scaled) else { return nil }
        if format == buffer.format { return scaled }
        let converted = CVBuffer(format: format, width: scaled.width, height: scaled.height)
        var convertedAttachments = attachments
        if !format.isYUV { convertedAttachments[kCVImageBufferYCbCrMatrixKey] = nil }
        converted.attachmentStore.withLock { $0 = convertedAttachments }
        guard ImageTransform.transform(scaled, into: converted, rotation: .none, mirrored: false) else { return nil }
        return converted
    }

    /// `buffer` scaled up by `factor` and centre-cropped to its own size (the still-image
    /// connection's `videoScaleAndCropFactor`); nil if the format cannot be cropped.
    static func scaledAndCropped(_ buffer: CVPixelBuffer, by factor: CGFloat) -> CVPixelBuffer? {
        let width = Int((CGFloat(buffer.width) / factor).rounded()), height = Int((CGFloat(buffer.height) / factor).rounded())
        let rect = PixelRect(x: (buffer.width - width) / 2, y: (buffer.height - height) / 2, width: max(1, width), height: max(1, height))
        let cropped = CVBuffer(format: buffer.format, width: buffer.width, height: buffer.height)
        let attachments = buffer.attachmentStore.withLock { $0 }
        cropped.attachmentStore.withLock { $0 = attachments }
        return ImageTransform.scale(buffer, from: rect, into: cropped) ? cropped : nil
    }
}
