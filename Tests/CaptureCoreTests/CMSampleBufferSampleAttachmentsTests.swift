import Foundation
import Testing

@testable import CaptureCore

/// Per-sample attachments and invalidation handlers of CMSampleBuffer.
@Suite("CMSampleBuffer sample attachments and invalidation")
struct CMSampleBufferSampleAttachmentsTests {
    static func frame() -> CMSampleBuffer {
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(nil, 32, 24, kCVPixelFormatType_32BGRA, nil, &pixels)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &made)
        return made!
    }

    @Test("a buffer has no sample attachments until asked; createIfNecessary makes one empty dictionary per sample, kept")
    func createOnDemand() throws {
        let buffer = Self.frame()
        #expect(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false) == nil)
        let made = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: true))
        #expect(made.count == 1)
        let dictionary = try #require(made.firstObject as? NSMutableDictionary)
        #expect(dictionary.count == 0)
        let again = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false))
        #expect(again === made, "the same array, not a new one")
        #expect((again.firstObject as? NSMutableDictionary) === dictionary)
    }

    @Test("a dropped-frame record (no samples) gets an empty array")
    func noSamples() throws {
        let record = CMSampleBuffer(imageBuffer: nil, formatDescription: nil, presentationTimeStamp: .zero, duration: .invalid)
        let made = try #require(CMSampleBufferGetSampleAttachmentsArray(record, createIfNecessary: true))
        #expect(made.count == 0)
        #expect(record.sampleAttachments.isEmpty)
    }

    @Test("a change through [NSMutableDictionary] is seen by the next call and by sampleAttachments")
    func mutateThroughFoundation() throws {
        let buffer = Self.frame()
        let dictionaries = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: true) as? [NSMutableDictionary])
        dictionaries[0][kCMSampleAttachmentKey_NotSync] = true
        let reread = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false) as? [[CFString: Any]])
        #expect(reread[0][kCMSampleAttachmentKey_NotSync] as? Bool == true)
        let asStrings = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false) as? [[String: Any]])
        #expect(asStrings[0]["NotSync"] as? Bool == true)
        #expect(buffer.sampleAttachments[0][.notSync] as? Bool == true)
        #expect(buffer.sampleAttachments.first?[.dependsOnOthers] == nil)
    }

    @Test("CFArrayGetValueAtIndex, unsafeBitCast and CFDictionarySetValue write the buffer's dictionary")
    func mutateThroughCoreFoundation() throws {
        let buffer = Self.frame()
        let attachments = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: true))
        #expect(CFArrayGetCount(attachments) == 1)
        let dict = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        let key = Unmanaged.passUnretained(kCMSampleAttachmentKey_DisplayImmediately).toOpaque()
        #expect(!CFDictionaryContainsKey(dict, key))
        CFDictionarySetValue(dict, key, Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
        #expect(CFDictionaryContainsKey(dict, key))
        #expect(CFDictionaryGetCount(dict) == 1)
        let value = try #require(CFDictionaryGetValue(dict, key))
        #expect(CFBooleanGetValue(unsafeBitCast(value, to: CFBoolean.self)))
        #expect(buffer.sampleAttachments[0][.displayImmediately] as? Bool == true)
        let next = CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false)
        #expect((next?.firstObject as? NSMutableDictionary)?[kCMSampleAttachmentKey_DisplayImmediately] as? Bool == true)
        CFDictionaryRemoveValue(dict, key)
        #expect(buffer.sampleAttachments[0][.displayImmediately] == nil)
    }

    @Test("sampleAttachments writes are seen by the C function; setting nil removes; iteration gives the pairs")
    func overlayWrites() throws {
        let buffer = Self.frame()
        buffer.sampleAttachments[0][.doNotDisplay] = true
        buffer.sampleAttachments[0][.hevcSyncSampleNALUnitType] = 19
        let dictionary = try #require(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false)?.firstObject as? NSMutableDictionary)
        #expect(dictionary[kCMSampleAttachmentKey_DoNotDisplay] as? Bool == true)
        #expect(dictionary[kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType] as? Int == 19)
        let pairs = Dictionary(uniqueKeysWithValues: buffer.sampleAttachments[0].map { ($0.key, $0.value) })
        #expect(Set(pairs.keys) == [.doNotDisplay, .hevcSyncSampleNALUnitType])
        buffer.sampleAttachments[0][.doNotDisplay] = nil
        #expect(dictionary[kCMSampleAttachmentKey_DoNotDisplay] == nil)
        // Assigning one sample's attachments to another buffer copies them.
        let other = Self.frame()
        other.sampleAttachments[0] = buffer.sampleAttachments[0]
        #expect(other.sampleAttachments[0][.hevcSyncSampleNALUnitType] as? Int == 19)
        other.sampleAttachments[0][.hevcSyncSampleNALUnitType] = 1
        #expect(buffer.sampleAttachments[0][.hevcSyncSampleNALUnitType] as? Int == 19, "a copy, not the same dictionary")
    }

    @Test("an invalidated buffer has no sample attachments")
    func invalidatedHasNone() {
        let buffer = Self.frame()
        buffer.sampleAttachments[0][.notSync] = true
        CMSampleBufferInvalidate(buffer)
        #expect(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: true) == nil)
        #expect(buffer.sampleAttachments.isEmpty)
    }

    @Test("the invalidate handler runs once, on the first invalidation, with no lock held")
    func handlerRunsOnce() {
        let buffer = Self.frame()
        let calls = Locked<[Bool]>([])
        let status = CMSampleBufferSetInvalidateHandler(buffer) { sbuf in
            // Reading the buffer here would deadlock if a lock were held.
            calls.withLock { $0.append(CMSampleBufferIsValid(sbuf)) }
            _ = CMSampleBufferGetSampleAttachmentsArray(sbuf, createIfNecessary: true)
        }
        #expect(status == noErr)
        #expect(calls.withLock { $0 }.isEmpty, "not called when set")
        #expect(CMSampleBufferInvalidate(buffer) == noErr)
        #expect(calls.withLock { $0 } == [false], "called once, after the buffer became invalid")
        CMSampleBufferInvalidate(buffer)
        #expect(calls.withLock { $0 }.count == 1, "not called again")
    }

    @Test("a second handler or callback is refused and the first stays; none can be set on an invalidated buffer")
    func oneHandler() throws {
        let buffer = Self.frame()
        let which = Locked<[String]>([])
        #expect(CMSampleBufferSetInvalidateHandler(buffer) { _ in which.withLock { $0.append("first") } } == noErr)
        #expect(CMSampleBufferSetInvalidateHandler(buffer) { _ in which.withLock { $0.append("second") } } == paramErr)
        #expect(CMSampleBufferSetInvalidateCallback(buffer, callback: { _, _ in which.withLock { $0.append("callback") } }, refcon: 1) == paramErr)
        #expect(throws: NSError.self) { try buffer.setInvalidateHandler { _ in which.withLock { $0.append("overlay") } } }
        CMSampleBufferInvalidate(buffer)
        #expect(which.withLock { $0 } == ["first"])
        #expect(CMSampleBufferSetInvalidateHandler(buffer) { _ in } == kCMSampleBufferError_Invalidated)
    }

    @Test("the callback gets the buffer and its refcon; the overlay's throwing handler runs and its error is dropped")
    func callbackAndOverlay() throws {
        let buffer = Self.frame()
        let seen = Locked<(ObjectIdentifier?, UInt64)>((nil, 0))
        CMSampleBufferSetInvalidateCallback(buffer, callback: { sbuf, refcon in seen.withLock { $0 = (ObjectIdentifier(sbuf), refcon) } }, refcon: 42)
        try buffer.invalidate()
        #expect(seen.withLock { $0.0 } == ObjectIdentifier(buffer))
        #expect(seen.withLock { $0.1 } == 42)

        let other = Self.frame()
        let ran = Locked(false)
        try other.setInvalidateHandler { _ in
            ran.withLock { $0 = true }
            throw CocoaError(.featureUnsupported)
        }
        try other.invalidate()
        #expect(ran.withLock { $0 })
    }

    @Test("a recycled buffer starts with no sample attachments and no invalidate handler, and is valid")
    func recycling() throws {
        let buffer = Self.frame()
        buffer.sampleAttachments[0][.notSync] = true
        let called = Locked(0)
        CMSampleBufferSetInvalidateHandler(buffer) { _ in called.withLock { $0 += 1 } }
        buffer.reuse(imageBuffer: buffer.imageBuffer, formatDescription: buffer.formatDescription, presentationTimeStamp: CMTime(value: 1, timescale: 30), duration: CMTime(value: 1, timescale: 30), metadata: nil)
        #expect(CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false) == nil)
        #expect(buffer.sampleAttachments[0][.notSync] == nil)
        #expect(CMSampleBufferSetInvalidateHandler(buffer) { _ in called.withLock { $0 += 10 } } == noErr, "the old handler is gone")
        CMSampleBufferInvalidate(buffer)
        #expect(called.withLock { $0 } == 10)
        // An invalidated buffer, recycled, is valid again and takes a handler.
        buffer.reuse(imageBuffer: buffer.imageBuffer, formatDescription: buffer.formatDescription, presentationTimeStamp: .zero, duration: .invalid, metadata: nil)
        #expect(CMSampleBufferIsValid(buffer))
        #expect(CMSampleBufferSetInvalidateHandler(buffer) { _ in } == noErr)
    }

    @Test("buffer-level keys: CMSampleBuffer.AttachmentKey members are the kCMSampleBufferAttachmentKey strings")
    func bufferKeys() {
        let buffer = Self.frame()
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect((buffer.attachments[.forceKeyFrame]?.value as? NSNumber)?.boolValue == true)
        #expect(buffer.attachments["ForceKeyFrame"]?.mode == kCMAttachmentMode_ShouldPropagate)
        #expect(CMSampleBuffer.AttachmentKey.droppedFrameReasonInfo.rawValue == kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo)
        #expect(CMSampleBuffer.AttachmentKey.cameraIntrinsicMatrix.rawValue == "CameraIntrinsicMatrix")
        #expect(CMSampleBuffer.PerSampleAttachmentsDictionary.Key.notSync.rawValue == "NotSync")
        #expect(kCFBooleanTrue.boolValue && !kCFBooleanFalse.boolValue)
    }
}
