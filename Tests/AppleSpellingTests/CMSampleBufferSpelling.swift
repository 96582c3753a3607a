// CMSampleBuffer.h (and CMFormatDescription.h for video), spelled as iOS code spells them.
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches the sample-buffer and format-description declarations; compiled, never called.
func spellCMSampleBuffer(_ sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer) {
    var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
    let invalid: (CMSampleTimingInfo, CMSampleTimingInfo, CMSampleTimingInfo) = (CMSampleTimingInfo(), .invalid, kCMTimingInfoInvalid)
    var needed: CMItemCount = 0
    let status1: OSStatus = CMSampleBufferGetSampleTimingInfoArray(sampleBuffer, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed)
    var timings = [CMSampleTimingInfo](repeating: .invalid, count: needed)
    let status2: OSStatus = CMSampleBufferGetSampleTimingInfoArray(sampleBuffer, entryCount: needed, arrayToFill: &timings, entriesNeededOut: &needed)
    let status3: OSStatus = CMSampleBufferGetSampleTimingInfo(sampleBuffer, at: 0, timingInfoOut: &timing)
    var description: CMVideoFormatDescription?
    let status4: OSStatus = CMVideoFormatDescriptionCreateForImageBuffer(
        allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer, formatDescriptionOut: &description)
    var made: CMSampleBuffer?
    let status5: OSStatus = CMSampleBufferCreateReadyWithImageBuffer(
        allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer, formatDescription: description!, sampleTiming: &timing,
        sampleBufferOut: &made)
    let status6: OSStatus = CMSampleBufferCreateForImageBuffer(
        allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: description!, sampleTiming: &timing, sampleBufferOut: &made)
    var copy: CMSampleBuffer?
    let status7: OSStatus = CMSampleBufferCreateCopyWithNewTiming(
        allocator: kCFAllocatorDefault, sampleBuffer: sampleBuffer, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
        sampleBufferOut: &copy)
    let times: (CMTime, CMTime, CMTime, CMTime, CMTime, CMTime) = (
        CMSampleBufferGetPresentationTimeStamp(sampleBuffer), CMSampleBufferGetOutputPresentationTimeStamp(sampleBuffer),
        CMSampleBufferGetDecodeTimeStamp(sampleBuffer), CMSampleBufferGetDuration(sampleBuffer),
        CMSampleBufferGetOutputDuration(sampleBuffer), sampleBuffer.outputPresentationTimeStamp)
    let facts: (CVImageBuffer?, CMFormatDescription?, CMItemCount, Bool, Bool) = (
        CMSampleBufferGetImageBuffer(sampleBuffer), CMSampleBufferGetFormatDescription(sampleBuffer),
        CMSampleBufferGetNumSamples(sampleBuffer), CMSampleBufferIsValid(sampleBuffer), CMSampleBufferDataIsReady(sampleBuffer))
    let overlay: [CMSampleTimingInfo]? = try? sampleBuffer.sampleTimingInfos()
    let errors: [OSStatus] = [
        kCMSampleBufferError_ArrayTooSmall, kCMSampleBufferError_InvalidMediaFormat, kCMSampleBufferError_SampleIndexOutOfRange,
        kCMSampleBufferError_RequiredParameterMissing, kCMSampleBufferError_InvalidEntryCount,
    ]
    _ = (invalid, status1, status2, status3, status4, status5, status6, status7, times, facts, overlay, errors)
    // CMFormatDescription.h, video.
    guard let format = CMSampleBufferGetFormatDescription(sampleBuffer) else { return }
    let typed: (CMFormatDescription.MediaType, CMFormatDescription.MediaSubType, CMVideoDimensions, CGSize) = (
        format.mediaType, format.mediaSubType, format.dimensions, format.presentationDimensions())
    let fourCC: FourCharCode = format.mediaSubType.rawValue
    let c: (CMMediaType, FourCharCode, CMVideoDimensions, CGSize, Bool, Bool) = (
        CMFormatDescriptionGetMediaType(format), CMFormatDescriptionGetMediaSubType(format), CMVideoFormatDescriptionGetDimensions(format),
        CMVideoFormatDescriptionGetPresentationDimensions(format, usePixelAspectRatio: true, useCleanAperture: true),
        CMVideoFormatDescriptionMatchesImageBuffer(format, imageBuffer: pixelBuffer),
        CMFormatDescriptionEqual(format, otherFormatDescription: description))
    var created: CMVideoFormatDescription?
    CMVideoFormatDescriptionCreate(
        allocator: kCFAllocatorDefault, codecType: kCMVideoCodecType_H264, width: 1920, height: 1080, extensions: nil,
        formatDescriptionOut: &created)
    let subtypes: [CMFormatDescription.MediaSubType] = [.h264, .hevc, .jpeg, .pixelFormat_32BGRA, .proRes422, .linearPCM]
    let types: [CMFormatDescription.MediaType] = [.video, .audio, .muxed, .metadata, .timeCode]
    _ = (typed, fourCC, c, subtypes, types, format.mediaType == .video)
}

@Suite("CMSampleBuffer spelling")
struct CMSampleBufferSpellingTests {
    func makePixelBuffer(_ format: OSType = kCVPixelFormatType_32BGRA) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, format, nil, &buffer)
        return buffer!
    }

    @Test("a sample buffer made for an image buffer carries its timing and format; a copy takes new timing")
    func createAndRetime() throws {
        let pixels = makePixelBuffer()
        var format: CMVideoFormatDescription?
        #expect(CMVideoFormatDescriptionCreateForImageBuffer(allocator: kCFAllocatorDefault, imageBuffer: pixels, formatDescriptionOut: &format) == noErr)
        let description = try #require(format)
        #expect(description.mediaType == .video)
        #expect(description.mediaSubType == .pixelFormat_32BGRA)
        #expect(description.mediaSubType.rawValue == kCVPixelFormatType_32BGRA)
        #expect(description.dimensions.width == 64 && description.dimensions.height == 48)
        #expect(CMVideoFormatDescriptionGetPresentationDimensions(description, usePixelAspectRatio: true, useCleanAperture: false) == CGSize(width: 64, height: 48))
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 7, timescale: 30), decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        #expect(CMSampleBufferCreateReadyWithImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: pixels, formatDescription: description, sampleTiming: &timing, sampleBufferOut: &made) == noErr)
        let sample = try #require(made)
        #expect(CMSampleBufferGetImageBuffer(sample) === pixels)
        #expect(sample.presentationTimeStamp == CMTime(value: 7, timescale: 30))
        var needed: CMItemCount = 0
        #expect(CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed) == noErr)
        #expect(needed == 1)
        var small = [CMSampleTimingInfo]()
        #expect(CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 0, arrayToFill: &small, entriesNeededOut: nil) == kCMSampleBufferError_ArrayTooSmall)
        var filled = [CMSampleTimingInfo](repeating: .invalid, count: 1)
        #expect(CMSampleBufferGetSampleTimingInfoArray(sample, entryCount: 1, arrayToFill: &filled, entriesNeededOut: nil) == noErr)
        #expect(filled[0].duration == CMTime(value: 1, timescale: 30) && filled[0].presentationTimeStamp == CMTime(value: 7, timescale: 30))
        var later = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 100, timescale: 30), decodeTimeStamp: .invalid)
        var copy: CMSampleBuffer?
        #expect(CMSampleBufferCreateCopyWithNewTiming(
            allocator: kCFAllocatorDefault, sampleBuffer: sample, sampleTimingEntryCount: 1, sampleTimingArray: &later, sampleBufferOut: &copy) == noErr)
        #expect(copy?.presentationTimeStamp == CMTime(value: 100, timescale: 30))
        #expect(copy.flatMap(CMSampleBufferGetImageBuffer) === pixels)
        #expect(sample.presentationTimeStamp == CMTime(value: 7, timescale: 30), "the original keeps its timing")
    }

    @Test("a format description that does not match the image buffer is refused")
    func mismatchedFormat() {
        let pixels = makePixelBuffer()
        var other: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(
            allocator: nil, codecType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: 64, height: 48, extensions: nil,
            formatDescriptionOut: &other)
        var timing = CMSampleTimingInfo()
        var made: CMSampleBuffer?
        #expect(CMSampleBufferCreateReadyWithImageBuffer(
            allocator: nil, imageBuffer: pixels, formatDescription: other!, sampleTiming: &timing, sampleBufferOut: &made)
            == kCMSampleBufferError_InvalidMediaFormat)
        #expect(made == nil)
    }
}
