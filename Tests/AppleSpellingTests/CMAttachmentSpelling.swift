// CMAttachment.h and the CF type identifiers, spelled as iOS code spells them.
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches the attachment-bearer functions and type IDs; compiled, never called.
func spellCMAttachment(_ sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer, value: Any) {
    var mode: CMAttachmentMode = kCMAttachmentMode_ShouldPropagate
    let got: Any? = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: &mode)
    CMSetAttachment(pixelBuffer, key: kCVImageBufferColorPrimariesKey, value: kCVImageBufferColorPrimaries_ITU_R_709_2, attachmentMode: kCMAttachmentMode_ShouldPropagate)
    CMSetAttachment(sampleBuffer, key: "Custom" as CFString, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
    CMRemoveAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason)
    CMRemoveAllAttachments(pixelBuffer)
    CMSetAttachments(sampleBuffer, attachments: NSDictionary(dictionary: ["Key": 1]), attachmentMode: kCMAttachmentMode_ShouldPropagate)
    CMPropagateAttachments(sampleBuffer, destination: pixelBuffer)
    let all: [String: Any]? = CMCopyDictionaryOfAttachments(allocator: kCFAllocatorDefault, target: sampleBuffer, attachmentMode: kCMAttachmentMode_ShouldPropagate)
    let ids: [CFTypeID] = [
        CFGetTypeID(value as CFTypeRef), CVPixelBufferGetTypeID(), CMSampleBufferGetTypeID(), CMFormatDescriptionGetTypeID(),
        CMBlockBufferGetTypeID(), CVPixelBufferPoolGetTypeID(), CFStringGetTypeID(), CFNumberGetTypeID(), CFBooleanGetTypeID(),
        CFDictionaryGetTypeID(), CFArrayGetTypeID(), CFDataGetTypeID(), CMSampleBuffer.typeID, CMFormatDescription.typeID,
        CMClockGetTypeID(), CMTimebaseGetTypeID(),
    ]
    _ = (got, all, ids)
}

@Suite("CMAttachment spelling")
struct CMAttachmentSpellingTests {
    static func frame() throws -> (CMSampleBuffer, CVPixelBuffer) {
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixels)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescriptionOut: &format)
        let sample = try CMSampleBuffer(imageBuffer: pixels!, formatDescription: format!, sampleTiming: CMSampleTimingInfo())
        return (sample, pixels!)
    }

    @Test("set, read, remove one or all; a dictionary at once; propagate only the propagating ones")
    func attachments() throws {
        let (sample, pixels) = try Self.frame()
        CMSetAttachment(sample, key: "A", value: "a", attachmentMode: kCMAttachmentMode_ShouldPropagate)
        CMSetAttachment(sample, key: "B" as CFString, value: "b", attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        var mode = kCMAttachmentMode_ShouldPropagate
        #expect(CMGetAttachment(sample, key: "B", attachmentModeOut: &mode) as? String == "b" && mode == kCMAttachmentMode_ShouldNotPropagate)
        CMPropagateAttachments(sample, destination: pixels)
        #expect(CMGetAttachment(pixels, key: "A", attachmentModeOut: nil) as? String == "a")
        #expect(CMGetAttachment(pixels, key: "B", attachmentModeOut: nil) == nil)
        CMRemoveAttachment(sample, key: "A")
        #expect(CMGetAttachment(sample, key: "A", attachmentModeOut: nil) == nil)
        CMSetAttachments(sample, attachments: NSDictionary(dictionary: ["C": "c", "D": "d"]), attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect(CMCopyDictionaryOfAttachments(allocator: nil, target: sample, attachmentMode: kCMAttachmentMode_ShouldPropagate)?.count == 2)
        CMRemoveAllAttachments(sample)
        #expect(CMGetAttachment(sample, key: "B", attachmentModeOut: nil) == nil && sample.attachments.count == 0)
        CMRemoveAllAttachments(pixels)
        #expect(CMGetAttachment(pixels, key: "A", attachmentModeOut: nil) == nil)
    }

    @Test("CFGetTypeID tells a pixel buffer from a sample buffer, a format, a block buffer, a string and a number")
    func typeIDs() throws {
        let (sample, pixels) = try Self.frame()
        let timebase = try CMTimebase(sourceClock: CMClockGetHostTimeClock())
        let values: [Any] = [
            pixels, sample, sample.formatDescription!, try CMBlockBuffer(length: 1), "text" as NSString, NSNumber(value: 3),
            CMClockGetHostTimeClock(), timebase,
        ]
        let ids = values.map { CFGetTypeID($0 as CFTypeRef) }
        #expect(ids == [
            CVPixelBufferGetTypeID(), CMSampleBufferGetTypeID(), CMFormatDescriptionGetTypeID(), CMBlockBufferGetTypeID(),
            CFStringGetTypeID(), CFNumberGetTypeID(), CMClockGetTypeID(), CMTimebaseGetTypeID(),
        ])
        #expect(Set(ids).count == ids.count)
        let any: Any = pixels
        if CFGetTypeID(any as CFTypeRef) == CVPixelBufferGetTypeID() {
            #expect((any as! CVPixelBuffer) === pixels)
        }
    }
}
