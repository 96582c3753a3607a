// CMSampleBuffer.h's per-sample and buffer-level attachment keys, sample attachments array
// and invalidation callbacks, spelled as iOS code spells them.
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches every attachment and invalidation declaration; compiled, never called.
func spellCMSampleBufferAttachments(_ sampleBuffer: CMSampleBuffer) {
    let sampleKeys: [CFString] = [
        kCMSampleAttachmentKey_NotSync, kCMSampleAttachmentKey_PartialSync, kCMSampleAttachmentKey_HasRedundantCoding,
        kCMSampleAttachmentKey_IsDependedOnByOthers, kCMSampleAttachmentKey_DependsOnOthers,
        kCMSampleAttachmentKey_EarlierDisplayTimesAllowed, kCMSampleAttachmentKey_DisplayImmediately, kCMSampleAttachmentKey_DoNotDisplay,
        kCMSampleAttachmentKey_HEVCTemporalLevelInfo, kCMSampleAttachmentKey_HEVCTemporalSubLayerAccess,
        kCMSampleAttachmentKey_HEVCStepwiseTemporalSubLayerAccess, kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType,
        kCMSampleAttachmentKey_AudioIndependentSampleDecoderRefreshCount, kCMSampleAttachmentKey_CryptorSubsampleAuxiliaryData,
        kCMSampleAttachmentKey_HDR10PlusPerFrameData, kCMSampleAttachmentKey_PostDecodeProcessingMetadata,
        kCMHEVCTemporalLevelInfoKey_TemporalLevel, kCMHEVCTemporalLevelInfoKey_ProfileSpace, kCMHEVCTemporalLevelInfoKey_TierFlag,
        kCMHEVCTemporalLevelInfoKey_ProfileIndex, kCMHEVCTemporalLevelInfoKey_ProfileCompatibilityFlags,
        kCMHEVCTemporalLevelInfoKey_ConstraintIndicatorFlags, kCMHEVCTemporalLevelInfoKey_LevelIndex,
    ]
    let bufferKeys: [String] = [
        kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding, kCMSampleBufferAttachmentKey_DrainAfterDecoding,
        kCMSampleBufferAttachmentKey_PostNotificationWhenConsumed, kCMSampleBufferAttachmentKey_ResumeOutput,
        kCMSampleBufferAttachmentKey_TransitionID, kCMSampleBufferAttachmentKey_TrimDurationAtStart,
        kCMSampleBufferAttachmentKey_TrimDurationAtEnd, kCMSampleBufferAttachmentKey_SpeedMultiplier, kCMSampleBufferAttachmentKey_Reverse,
        kCMSampleBufferAttachmentKey_FillDiscontinuitiesWithSilence, kCMSampleBufferAttachmentKey_EmptyMedia,
        kCMSampleBufferAttachmentKey_PermanentEmptyMedia, kCMSampleBufferAttachmentKey_DisplayEmptyMediaImmediately,
        kCMSampleBufferAttachmentKey_EndsPreviousSampleDuration, kCMSampleBufferAttachmentKey_SampleReferenceURL,
        kCMSampleBufferAttachmentKey_SampleReferenceByteOffset, kCMSampleBufferAttachmentKey_GradualDecoderRefresh,
        kCMSampleBufferAttachmentKey_DroppedFrameReason, kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo,
        kCMSampleBufferAttachmentKey_StillImageLensStabilizationInfo, kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix,
        kCMSampleBufferAttachmentKey_ForceKeyFrame,
        kCMSampleBufferDroppedFrameReasonInfo_CameraModeSwitch, kCMSampleBufferLensStabilizationInfo_Active,
        kCMSampleBufferLensStabilizationInfo_OutOfRange, kCMSampleBufferLensStabilizationInfo_Unavailable,
        kCMSampleBufferLensStabilizationInfo_Off,
    ]
    // The C function and its common idioms.
    let array: CFArray? = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true)
    let mutable: [NSMutableDictionary]? = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true) as? [NSMutableDictionary]
    let first: NSMutableDictionary? = (CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true) as NSArray?)?.firstObject as? NSMutableDictionary
    first?[kCMSampleAttachmentKey_DisplayImmediately] = true
    let typed: [[CFString: Any]]? = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: false) as? [[CFString: Any]]
    let isKeyframe: Bool = !(typed?.first?[kCMSampleAttachmentKey_NotSync] as? Bool ?? false)
    let strings: [[String: Any]]? = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: false) as? [[String: Any]]
    let notSync: Any? = strings?.first?[kCMSampleAttachmentKey_NotSync as String]
    if let attachments = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true) {
        let count: CFIndex = CFArrayGetCount(attachments)
        let dict = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        CFDictionarySetValue(
            dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_DisplayImmediately).toOpaque(),
            Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        let readOnly = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFDictionary.self)
        let contains: Bool = CFDictionaryContainsKey(readOnly, Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque())
        let raw: UnsafeRawPointer? = CFDictionaryGetValue(readOnly, Unmanaged.passUnretained(kCMSampleAttachmentKey_DependsOnOthers).toOpaque())
        let dependsOnOthers: Bool = raw.map { CFBooleanGetValue(unsafeBitCast($0, to: CFBoolean.self)) } ?? false
        let entries: CFIndex = CFDictionaryGetCount(readOnly)
        CFDictionaryRemoveValue(dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_DoNotDisplay).toOpaque())
        _ = (count, contains, dependsOnOthers, entries)
    }
    let booleans: (CFBoolean, CFBoolean) = (kCFBooleanTrue, kCFBooleanFalse)
    // The Swift overlay.
    let overlay: CMSampleBuffer.SampleAttachmentsArray = sampleBuffer.sampleAttachments
    let one: CMSampleBuffer.PerSampleAttachmentsDictionary? = overlay.first
    let perSampleKeys: [CMSampleBuffer.PerSampleAttachmentsDictionary.Key] = [
        .notSync, .partialSync, .hasRedundantCoding, .isDependedOnByOthers, .dependsOnOthers, .earlierDisplayTimesAllowed,
        .displayImmediately, .doNotDisplay, .hevcTemporalLevelInfo, .hevcTemporalSubLayerAccess, .hevcStepwiseTemporalSubLayerAccess,
        .hevcSyncSampleNALUnitType, .audioIndependentSampleDecoderRefreshCount,
    ]
    let custom = CMSampleBuffer.PerSampleAttachmentsDictionary.Key(rawValue: "Custom" as CFString)
    let value: Any? = one?[.notSync]
    sampleBuffer.sampleAttachments[0][.displayImmediately] = true
    for attachment in sampleBuffer.sampleAttachments {
        for (key, value) in attachment { _ = (key.rawValue, value) }
    }
    let attachmentKeys: [CMSampleBuffer.AttachmentKey] = [
        .resetDecoderBeforeDecoding, .drainAfterDecoding, .postNotificationWhenConsumed, .resumeOutput, .transitionID,
        .trimDurationAtStart, .trimDurationAtEnd, .speedMultiplier, .reverse, .fillDiscontinuitiesWithSilence, .emptyMedia,
        .permanentEmptyMedia, .displayEmptyMediaImmediately, .endsPreviousSampleDuration, .sampleReferenceURL,
        .sampleReferenceByteOffset, .gradualDecoderRefresh, .droppedFrameReason, .droppedFrameReasonInfo,
        .stillImageLensStabilizationInfo, .cameraIntrinsicMatrix, .forceKeyFrame,
    ]
    let reason: CMAttachmentBearerAttachments.Value? = sampleBuffer.attachments[.droppedFrameReason]
    let byString: CMAttachmentBearerAttachments.Value? = sampleBuffer.attachments["DroppedFrameReason"]
    CMSetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldPropagate)
    // Invalidation.
    let callback: CMSampleBufferInvalidateCallback = { _, _ in }
    let handler: CMSampleBufferInvalidateHandler = { _ in }
    let status1: OSStatus = CMSampleBufferSetInvalidateCallback(sampleBuffer, callback: callback, refcon: 7)
    let status2: OSStatus = CMSampleBufferSetInvalidateHandler(sampleBuffer, invalidateHandler: handler)
    let status3: OSStatus = CMSampleBufferSetInvalidateHandler(sampleBuffer) { sbuf in _ = CMSampleBufferIsValid(sbuf) }
    try? sampleBuffer.setInvalidateHandler { sbuf in _ = sbuf.isValid }
    let status4: OSStatus = CMSampleBufferInvalidate(sampleBuffer)
    _ = (sampleKeys, bufferKeys, array, mutable, isKeyframe, notSync, booleans, perSampleKeys, custom, value, attachmentKeys)
    _ = (reason, byString, status1, status2, status3, status4)
}

@Suite("CMSampleBuffer attachments spelling")
struct CMSampleBufferAttachmentsSpellingTests {
    func makeSampleBuffer() throws -> CMSampleBuffer {
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &pixels)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: kCFAllocatorDefault, imageBuffer: try #require(pixels), formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: try #require(pixels), formatDescription: try #require(format), sampleTiming: &timing,
            sampleBufferOut: &made)
        return try #require(made)
    }

    @Test("the keys have Core Media's strings")
    func keyStrings() {
        #expect(kCMSampleAttachmentKey_NotSync == "NotSync")
        #expect(kCMSampleAttachmentKey_DisplayImmediately == "DisplayImmediately")
        #expect(kCMSampleAttachmentKey_HDR10PlusPerFrameData == "HDR10PlusPerFrameData")
        #expect(kCMSampleBufferAttachmentKey_ForceKeyFrame == "ForceKeyFrame")
        #expect(kCMSampleBufferAttachmentKey_TrimDurationAtStart == "TrimDurationAtStart")
        #expect(CMSampleBuffer.PerSampleAttachmentsDictionary.Key.dependsOnOthers.rawValue == kCMSampleAttachmentKey_DependsOnOthers)
        #expect(CMSampleBuffer.AttachmentKey.forceKeyFrame.rawValue == kCMSampleBufferAttachmentKey_ForceKeyFrame)
    }

    @Test("the unsafeBitCast/CFDictionarySetValue idiom marks the sample for immediate display, seen by the overlay")
    func displayImmediately() throws {
        let sampleBuffer = try makeSampleBuffer()
        #expect(CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: false) == nil)
        let attachments = try #require(CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: true))
        let dict = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        CFDictionarySetValue(
            dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_DisplayImmediately).toOpaque(),
            Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        #expect(sampleBuffer.sampleAttachments.first?[.displayImmediately] as? Bool == true)
        let typed = CMSampleBufferGetSampleAttachmentsArray(sampleBuffer, createIfNecessary: false) as? [[CFString: Any]]
        #expect(typed?.first?[kCMSampleAttachmentKey_DisplayImmediately] as? Bool == true)
    }

    @Test("the invalidate handler runs when the buffer is invalidated")
    func invalidateHandler() throws {
        let sampleBuffer = try makeSampleBuffer()
        final class Flag: @unchecked Sendable { var ran = false }
        let flag = Flag()
        #expect(CMSampleBufferSetInvalidateHandler(sampleBuffer) { _ in flag.ran = true } == noErr)
        #expect(!flag.ran)
        #expect(CMSampleBufferInvalidate(sampleBuffer) == noErr)
        #expect(flag.ran)
        #expect(!CMSampleBufferIsValid(sampleBuffer))
    }
}
