import Foundation
import Testing
@testable import CaptureCore

@Suite("CVPixelBuffer and CVPixelBufferPool")
struct CVPixelBufferTests {
    static let formats: [(OSType, Int, String)] = [
        (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 2, "420v"),
        (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 2, "420f"),
        (kCVPixelFormatType_420YpCbCr8Planar, 3, "y420"),
        (kCVPixelFormatType_420YpCbCr8PlanarFullRange, 3, "f420"),
        (kCVPixelFormatType_32BGRA, 0, "BGRA"),
    ]

    @Test("FourCC constants have Apple's values")
    func fourCCs() {
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange == 0x3432_3076)
        #expect(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange == 0x3432_3066)
        #expect(kCVPixelFormatType_420YpCbCr8Planar == 0x7934_3230)
        #expect(kCVPixelFormatType_420YpCbCr8PlanarFullRange == 0x6634_3230)
        #expect(kCVPixelFormatType_32BGRA == 0x4247_5241)
        for (code, _, name) in Self.formats { #expect(fourCCString(code) == name) }
    }

    @Test("planes, sizes and 64-byte rows for every format", arguments: [0, 1, 2, 3, 4])
    func geometry(index: Int) throws {
        let (code, planes, _) = Self.formats[index]
        var out: CVPixelBuffer?
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 641, 361, code, nil, &out) == kCVReturnSuccess)
        let buffer = try #require(out)
        #expect(CVPixelBufferGetWidth(buffer) == 641 && CVPixelBufferGetHeight(buffer) == 361)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == code)
        #expect(CVPixelBufferGetPlaneCount(buffer) == planes)
        #expect(CVPixelBufferIsPlanar(buffer) == (planes > 0))
        if planes == 0 {
            #expect(CVPixelBufferGetBytesPerRow(buffer) == 2624)  // 641 * 4 = 2564 rounded up to 64
            #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) == 0)
        } else {
            #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 641 && CVPixelBufferGetHeightOfPlane(buffer, 0) == 361)
            #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 321 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 181)
            for plane in 0..<planes {
                #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) % 64 == 0)
                #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) >= CVPixelBufferGetWidthOfPlane(buffer, plane) * (planes == 2 && plane == 1 ? 2 : 1))
            }
            #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, planes) == 0)
        }
    }

    @Test("base addresses exist only while locked, and are 64-byte aligned")
    func locking() throws {
        var out: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &out)
        let buffer = try #require(out)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == nil)
        #expect(CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        let luma = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 0))
        let chroma = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 1))
        #expect(Int(bitPattern: luma) % 64 == 0 && Int(bitPattern: chroma) % 64 == 0)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 2) == nil)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == nil)
        let unbalanced = CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
        // An unbalanced unlock is an error, and the generic one: not a specific code such as
        // kCVReturnPoolAllocationFailed (its value once).
        #expect(unbalanced == kCVReturnError, "unlock without lock")
    }

    @Test("bad arguments are refused")
    func badArguments() {
        var out: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 0, 10, kCVPixelFormatType_32BGRA, nil, &out) == kCVReturnInvalidSize)
        #expect(CVPixelBufferCreate(nil, 10, 10, 0x6162_6364, nil, &out) == kCVReturnInvalidPixelFormat)
        #expect(out == nil)
        var pool: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(nil, nil, [kCVPixelBufferWidthKey: 10], &pool) == kCVReturnInvalidArgument)
    }

    @Test("a pool recycles a buffer once nobody holds it, and stops at its maximum")
    func poolRecycles() throws {
        var out: CVPixelBufferPool?
        let attributes: [String: Any] = [
            kCVPixelBufferWidthKey: 320, kCVPixelBufferHeightKey: 240,
            kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
        ]
        #expect(CVPixelBufferPoolCreate(nil, [kCVPixelBufferPoolMinimumBufferCountKey: 2, kCVPixelBufferPoolMaximumBufferCountKey: 3], attributes, &out) == kCVReturnSuccess)
        let pool = try #require(out)
        #expect(pool.bufferCount == 2)
        var first: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, pool, &first)
        let firstIdentity = ObjectIdentifier(first!)
        first = nil
        var again: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, pool, &again)
        #expect(ObjectIdentifier(again!) == firstIdentity, "the released buffer comes back")
        var held: [CVPixelBuffer] = [again!]
        for _ in 0..<2 {
            var next: CVPixelBuffer?
            #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &next) == kCVReturnSuccess)
            held.append(next!)
        }
        var overflow: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, pool, &overflow) == kCVReturnWouldExceedAllocationThreshold)
        #expect(pool.bufferCount == 3)
        held.removeAll()
        again = nil
        CVPixelBufferPoolFlush(pool, .excessBuffers)
        #expect(pool.bufferCount == 2)
    }

    @Test("a pool that forgets its held buffers lends its whole budget again; the held ones live on")
    func poolForgetsHeldBuffers() {
        let pool = CVPixelBufferPool(format: .bgra, width: 16, height: 8, minimumBufferCount: 1, maximumBufferCount: 2)
        let held = [pool.dequeue()!, pool.dequeue()!]
        #expect(pool.dequeue() == nil, "both buffers are held")
        held[0].attachmentStore.withLock { $0["mark"] = 1 }
        pool.forgetHeldBuffers()
        #expect(pool.bufferCount == 0)
        let fresh = [pool.dequeue()!, pool.dequeue()!]
        #expect(fresh.allSatisfy { buffer in !held.contains { $0 === buffer } })
        withExtendedLifetime(fresh) { #expect(pool.dequeue() == nil, "the maximum still holds") }
        #expect(held[0].attachmentStore.withLock { $0["mark"] as? Int } == 1, "a forgotten buffer stays its holder's")
    }

    @Test("sample buffers carry image, timing, format and the dropped-frame reason")
    func sampleBuffers() throws {
        let image = CVBuffer(format: .bgra, width: 8, height: 4)
        var description: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: image, formatDescriptionOut: &description)
        let format = try #require(description)
        #expect(CMVideoFormatDescriptionGetDimensions(format) == CMVideoDimensions(width: 8, height: 4))
        #expect(format.mediaSubType.rawValue == kCVPixelFormatType_32BGRA)
        #expect(CMFormatDescriptionGetMediaType(format) == kCMMediaType_Video)
        let sample = CMSampleBuffer(
            imageBuffer: image, formatDescription: format, presentationTimeStamp: CMTime(value: 3, timescale: 30),
            duration: CMTime(value: 1, timescale: 30))
        #expect(CMSampleBufferGetImageBuffer(sample) === image)
        #expect(CMSampleBufferGetPresentationTimeStamp(sample) == CMTime(value: 1, timescale: 10))
        #expect(CMSampleBufferGetDuration(sample) == CMTime(value: 1, timescale: 30))
        #expect(CMSampleBufferGetNumSamples(sample) == 1)
        #expect(sample.attachments[.droppedFrameReason] == nil)
        CMSetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, value: kCMSampleBufferDroppedFrameReason_OutOfBuffers, attachmentMode: kCMAttachmentMode_ShouldPropagate)
        #expect(sample.attachments[.droppedFrameReason]?.value as? String == "OutOfBuffers")
        #expect(CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String == "OutOfBuffers")
        #expect(kCMSampleBufferDroppedFrameReason_FrameWasLate == "FrameWasLate")
        #expect(kCMSampleBufferDroppedFrameReason_Discontinuity == "Discontinuity")
    }
}
