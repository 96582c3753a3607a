// CMFormatDescription.h's video members capture code calls, CMAttachment.h's dictionary
// copy, and CVPixelBuffer.h's attribute keys and functions not in CVPixelBufferSpelling
// (iOS 18 SDK), spelled as iOS code spells them. CF types are Swift dictionaries here.
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches the declarations; compiled, never called.
func spellCMFormatDescription(_ format: CMVideoFormatDescription, sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer) {
    let extensions: [String: Any]? = CMFormatDescriptionGetExtensions(format)
    let fullRange: Any? = CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_FullRangeVideo)
    let keys: [String] = [
        kCMFormatDescriptionExtension_FullRangeVideo, kCMFormatDescriptionExtension_CleanAperture, kCMFormatDescriptionExtension_FieldCount,
        kCMFormatDescriptionExtension_ColorPrimaries, kCMFormatDescriptionExtension_TransferFunction, kCMFormatDescriptionExtension_YCbCrMatrix,
    ]
    let common: [String] = CMVideoFormatDescriptionGetExtensionKeysCommonWithImageBuffers()
    let aperture: CGRect = CMVideoFormatDescriptionGetCleanAperture(format, originIsAtTopLeft: true)
    let attachments: [String: Any]? = CMCopyDictionaryOfAttachments(
        allocator: kCFAllocatorDefault, target: sampleBuffer, attachmentMode: kCMAttachmentMode_ShouldPropagate)
    let imageAttachments: [String: Any]? = CMCopyDictionaryOfAttachments(allocator: nil, target: pixelBuffer, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
    let bufferKeys: [String] = [
        kCVPixelBufferMetalCompatibilityKey, kCVPixelBufferIOSurfacePropertiesKey, kCVPixelBufferOpenGLESCompatibilityKey,
        kCVPixelBufferCGImageCompatibilityKey, kCVPixelBufferCGBitmapContextCompatibilityKey, kCVPixelBufferExtendedPixelsLeftKey,
        kCVPixelBufferExtendedPixelsTopKey, kCVPixelBufferExtendedPixelsRightKey, kCVPixelBufferExtendedPixelsBottomKey,
        kCVPixelBufferPlaneAlignmentKey, kCVBufferPropagatedAttachmentsKey, kCVBufferNonPropagatedAttachmentsKey,
    ]
    let compatible: Bool = CVPixelBufferIsCompatibleWithAttributes(pixelBuffer, [kCVPixelBufferMetalCompatibilityKey as String: true])
    var resolved: [String: Any]?
    let status: CVReturn = CVPixelBufferCreateResolvedAttributesDictionary(kCFAllocatorDefault, [[kCVPixelBufferWidthKey: 64]], &resolved)
    let filled: CVReturn = CVPixelBufferFillExtendedPixels(pixelBuffer)
    _ = (extensions, fullRange, keys, common, aperture, attachments, imageAttachments, bufferKeys, compatible, status, filled, resolved)
}

@Suite("CMFormatDescription spelling")
struct CMFormatDescriptionSpellingTests {
    @Test("a capture format's extensions say its range; the clean aperture is the whole picture")
    func extensionsAndAperture() throws {
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, width: 640, height: 480, extensions: nil,
            formatDescriptionOut: &format)
        let full = try #require(format)
        #expect((CMFormatDescriptionGetExtension(full, extensionKey: kCMFormatDescriptionExtension_FullRangeVideo) as? NSNumber)?.boolValue == true)
        #expect((CMFormatDescriptionGetExtensions(full)?[kCMFormatDescriptionExtension_FieldCount] as? NSNumber)?.intValue == 1)
        #expect(CMVideoFormatDescriptionGetCleanAperture(full, originIsAtTopLeft: true) == CGRect(x: 0, y: 0, width: 640, height: 480))
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 64, height: 48, extensions: nil,
            formatDescriptionOut: &format)
        #expect((CMFormatDescriptionGetExtension(try #require(format), extensionKey: kCMFormatDescriptionExtension_FullRangeVideo) as? NSNumber)?.boolValue == false)
        CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_JPEG, width: 64, height: 48, extensions: nil, formatDescriptionOut: &format)
        #expect(CMFormatDescriptionGetExtensions(try #require(format)) == nil, "a codec format has no pixel-format extensions")
    }

    @Test("attachments copy by mode from sample and image buffers; Metal and IOSurface keys are accepted")
    func attachmentsAndAttributes() throws {
        var pixels: CVPixelBuffer?
        let attributes: [String: Any] = [
            kCVPixelBufferMetalCompatibilityKey as String: true, kCVPixelBufferIOSurfacePropertiesKey as String: [String: Any](),
        ]
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, attributes, &pixels) == kCVReturnSuccess)
        let buffer = try #require(pixels)
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, attributes))
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, [kCVPixelBufferWidthKey as String: 64]))
        #expect(!CVPixelBufferIsCompatibleWithAttributes(buffer, [kCVPixelBufferWidthKey as String: 65]))
        #expect(!CVPixelBufferIsCompatibleWithAttributes(buffer, [kCVPixelBufferExtendedPixelsLeftKey as String: 16]))
        CVBufferSetAttachment(buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2, .shouldPropagate)
        CVBufferSetAttachment(buffer, "Private", "x", .shouldNotPropagate)
        let propagated = try #require(CMCopyDictionaryOfAttachments(allocator: nil, target: buffer, attachmentMode: kCMAttachmentMode_ShouldPropagate))
        #expect(propagated.keys.contains(kCVImageBufferColorPrimariesKey) && !propagated.keys.contains("Private"))
        var sampleBuffer: CMSampleBuffer?
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        CMSampleBufferCreateReadyWithImageBuffer(
            allocator: nil, imageBuffer: buffer, formatDescription: try #require(format), sampleTiming: &timing, sampleBufferOut: &sampleBuffer)
        let sample = try #require(sampleBuffer)
        #expect(CMCopyDictionaryOfAttachments(allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate) == nil)
        CMSetAttachment(sample, key: "Note", value: "kept", attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect(CMCopyDictionaryOfAttachments(allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate)?["Note"] as? String == "kept")
        var resolved: [String: Any]?
        CVPixelBufferCreateResolvedAttributesDictionary(nil, [[kCVPixelBufferWidthKey: 64], [kCVPixelBufferWidthKey: 32]], &resolved)
        #expect(resolved?[kCVPixelBufferWidthKey] as? Int == 32)
        #expect((resolved?[kCVPixelBufferMetalCompatibilityKey] as? NSNumber)?.boolValue == true)
    }
}
