// CVPixelBuffer.h, CVPixelBufferPool.h and CVBuffer.h, spelled as iOS code spells them.
import CoreVideo
import Foundation
import Synchronization
import Testing

/// Touches the pixel-buffer, pool and attachment declarations; compiled, never called.
func spellCVPixelBuffer(_ pixelBuffer: CVPixelBuffer, pool: CVPixelBufferPool) {
    var out: CVPixelBuffer?
    let attributes: [String: Any] = [
        kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 640,
        kCVPixelBufferHeightKey as String: 480,
    ]
    let created: CVReturn = CVPixelBufferCreate(kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32BGRA, attributes, &out)
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: 640 * 4 * 480, alignment: 64)
    let wrapped: CVReturn = CVPixelBufferCreateWithBytes(
        kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32BGRA, bytes, 640 * 4, { _, base in base.map { UnsafeMutableRawPointer(mutating: $0).deallocate() } },
        nil, nil, &out)
    var planes: [UnsafeMutableRawPointer?] = [nil, nil]
    var widths = [640, 320], heights = [480, 240], rows = [640, 640]
    let planar: CVReturn = CVPixelBufferCreateWithPlanarBytes(
        kCFAllocatorDefault, 640, 480, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, 0, 2, &planes, &widths, &heights, &rows,
        nil, nil, nil, &out)
    let sizes: (Int, Int, Int, Int, OSType, Bool) = (
        CVPixelBufferGetWidth(pixelBuffer), CVPixelBufferGetHeight(pixelBuffer), CVPixelBufferGetDataSize(pixelBuffer),
        CVPixelBufferGetPlaneCount(pixelBuffer), CVPixelBufferGetPixelFormatType(pixelBuffer), CVPixelBufferIsPlanar(pixelBuffer))
    var left = 0, right = 0, top = 0, bottom = 0
    CVPixelBufferGetExtendedPixels(pixelBuffer, &left, &right, &top, &bottom)
    CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
    let memory: (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?, Int, Int, Int) = (
        CVPixelBufferGetBaseAddress(pixelBuffer), CVPixelBufferGetBytesPerRow(pixelBuffer), CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 0),
        CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 0), CVPixelBufferGetWidthOfPlane(pixelBuffer, 0), CVPixelBufferGetHeightOfPlane(pixelBuffer, 0))
    CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly)
    // CVPixelBufferPool.h
    var newPool: CVPixelBufferPool?
    let poolCreated: CVReturn = CVPixelBufferPoolCreate(
        kCFAllocatorDefault, [kCVPixelBufferPoolMinimumBufferCountKey as String: 3], attributes, &newPool)
    let fromPool: CVReturn = CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &out)
    let withAux: CVReturn = CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
        kCFAllocatorDefault, pool, [kCVPixelBufferPoolAllocationThresholdKey as String: 4], &out)
    let poolAttributes: ([String: Any]?, [String: Any]?) = (CVPixelBufferPoolGetPixelBufferAttributes(pool), CVPixelBufferPoolGetAttributes(pool))
    CVPixelBufferPoolFlush(pool, .excessBuffers)
    CVPixelBufferPoolFlush(pool, [])
    CVPixelBufferPoolFlush(pool, kCVPixelBufferPoolFlushExcessBuffers)
    // CVBuffer.h attachments, with the colour tags OpenCapture puts on its buffers.
    CVBufferSetAttachment(pixelBuffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2, .shouldPropagate)
    CVBufferSetAttachment(pixelBuffer, kCVImageBufferTransferFunctionKey, kCVImageBufferTransferFunction_ITU_R_709_2, .shouldPropagate)
    CVBufferSetAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2, .shouldNotPropagate)
    var mode = CVAttachmentMode.shouldPropagate
    let copied: Any? = CVBufferCopyAttachment(pixelBuffer, kCVImageBufferColorPrimariesKey, &mode)
    let all: [String: Any]? = CVBufferCopyAttachments(pixelBuffer, .shouldPropagate)
    let has: Bool = CVBufferHasAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey)
    CVBufferSetAttachments(pixelBuffer, [kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_P3_D65], .shouldPropagate)
    CVBufferPropagateAttachments(pixelBuffer, out!)
    CVBufferRemoveAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey)
    CVBufferRemoveAllAttachments(pixelBuffer)
    _ = (created, wrapped, planar, sizes, memory, poolCreated, fromPool, withAux, poolAttributes, copied, all, has)
}

/// Counts release callbacks: a C callback cannot capture, so the refcon points at this.
final class ReleaseCounter: @unchecked Sendable {
    let count = Atomic<Int>(0)
    let lastBase = Atomic<UInt>(0)
}

@Suite("CVPixelBuffer spelling")
struct CVPixelBufferSpellingTests {
    @Test("CVPixelBufferCreateWithBytes wraps the memory without a copy and calls its release callback once, when freed")
    func createWithBytesReleases() throws {
        let counter = ReleaseCounter()
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 32 * 4 * 8, alignment: 64)
        defer { bytes.deallocate() }
        do {
            var out: CVPixelBuffer?
            let status = CVPixelBufferCreateWithBytes(
                kCFAllocatorDefault, 32, 8, kCVPixelFormatType_32BGRA, bytes, 32 * 4,
                { refCon, base in
                    let counter = Unmanaged<ReleaseCounter>.fromOpaque(refCon!).takeUnretainedValue()
                    counter.count.add(1, ordering: .relaxed)
                    counter.lastBase.store(UInt(bitPattern: base), ordering: .relaxed)
                },
                Unmanaged.passUnretained(counter).toOpaque(), nil, &out)
            #expect(status == kCVReturnSuccess)
            let buffer = try #require(out)
            CVPixelBufferLockBaseAddress(buffer, [])
            #expect(CVPixelBufferGetBaseAddress(buffer) == bytes)
            #expect(CVPixelBufferGetBytesPerRow(buffer) == 128)
            CVPixelBufferUnlockBaseAddress(buffer, [])
            #expect(counter.count.load(ordering: .relaxed) == 0, "not released while in use")
            out = nil
        }
        #expect(counter.count.load(ordering: .relaxed) == 1)
        #expect(counter.lastBase.load(ordering: .relaxed) == UInt(bitPattern: bytes))
    }

    @Test("CVPixelBufferCreateWithPlanarBytes describes the caller's planes and releases them")
    func createWithPlanarBytes() throws {
        let counter = ReleaseCounter()
        let luma = UnsafeMutableRawPointer.allocate(byteCount: 64 * 16, alignment: 64)
        let chroma = UnsafeMutableRawPointer.allocate(byteCount: 64 * 8, alignment: 64)
        defer { luma.deallocate(); chroma.deallocate() }
        do {
            var planes: [UnsafeMutableRawPointer?] = [luma, chroma]
            var widths = [32, 16], heights = [16, 8], rows = [64, 64]
            var out: CVPixelBuffer?
            let status = CVPixelBufferCreateWithPlanarBytes(
                nil, 32, 16, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, 0, 2, &planes, &widths, &heights, &rows,
                { refCon, _, _, planeCount, _ in
                    Unmanaged<ReleaseCounter>.fromOpaque(refCon!).takeUnretainedValue().count.add(planeCount, ordering: .relaxed)
                },
                Unmanaged.passUnretained(counter).toOpaque(), nil, &out)
            #expect(status == kCVReturnSuccess)
            let buffer = try #require(out)
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 0) == luma)
            #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 1) == chroma)
            #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) == 64 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 8)
            CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            out = nil
        }
        #expect(counter.count.load(ordering: .relaxed) == 2, "the callback got the plane count, once")
    }

    @Test("a pool hands a released buffer out again; held ones are not reused; flush frees the free ones")
    func poolReuses() throws {
        var pool: CVPixelBufferPool?
        let attributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
            kCVPixelBufferWidthKey as String: 64, kCVPixelBufferHeightKey as String: 32,
        ]
        #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, nil, attributes, &pool) == kCVReturnSuccess)
        let thePool = try #require(pool)
        #expect(CVPixelBufferPoolGetPixelBufferAttributes(thePool)?[kCVPixelBufferWidthKey] as? Int == 64)
        var first: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, thePool, &first)
        let firstID = ObjectIdentifier(try #require(first))
        var second: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, thePool, &second)
        #expect(ObjectIdentifier(try #require(second)) != firstID, "a held buffer is not handed out twice")
        first = nil
        var third: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, thePool, &third)
        #expect(ObjectIdentifier(try #require(third)) == firstID, "the released buffer comes back")
        var limited: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
            nil, thePool, [kCVPixelBufferPoolAllocationThresholdKey: 2], &limited) == kCVReturnWouldExceedAllocationThreshold)
        third = nil
        second = nil
        CVPixelBufferPoolFlush(thePool, [])
        var fresh: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, thePool, &fresh)
        #expect(fresh != nil)
    }

    @Test("attachments round-trip with their mode; propagate copies only propagating ones; remove removes")
    func attachmentsRoundTrip() throws {
        var out: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 16, 16, kCVPixelFormatType_32BGRA, nil, &out)
        let buffer = try #require(out)
        CVBufferSetAttachment(buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2, .shouldPropagate)
        CVBufferSetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_601_4, .shouldNotPropagate)
        var mode = CVAttachmentMode.shouldPropagate
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, &mode) as? String == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        #expect(mode == .shouldNotPropagate)
        #expect(CVBufferCopyAttachments(buffer, .shouldPropagate)?.keys.sorted() == [kCVImageBufferColorPrimariesKey])
        #expect(CVBufferCopyAttachments(buffer, .shouldNotPropagate)?.keys.sorted() == [kCVImageBufferYCbCrMatrixKey])
        var other: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 16, 16, kCVPixelFormatType_32BGRA, nil, &other)
        let target = try #require(other)
        CVBufferPropagateAttachments(buffer, target)
        #expect(CVBufferCopyAttachment(target, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)
        #expect(!CVBufferHasAttachment(target, kCVImageBufferYCbCrMatrixKey))
        CVBufferRemoveAttachment(buffer, kCVImageBufferColorPrimariesKey)
        #expect(!CVBufferHasAttachment(buffer, kCVImageBufferColorPrimariesKey) && CVBufferHasAttachment(buffer, kCVImageBufferYCbCrMatrixKey))
        CVBufferRemoveAllAttachments(buffer)
        #expect(CVBufferCopyAttachments(buffer, .shouldNotPropagate) == nil)
    }
}

/// The deprecated unretained getter, as pre-iOS 15 code calls it; compiled, never called.
@available(*, deprecated)
func spellCVBufferGetAttachment(_ pixelBuffer: CVPixelBuffer) -> String? {
    CVBufferGetAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, nil)?.takeUnretainedValue() as? String
}


/// The same calls with Core Foundation dictionaries, as iOS code passes them (`as
/// CFDictionary`, a literal, `as CFString` keys); compiled, never called.
func spellCVPixelBufferCoreFoundation(_ pixelBuffer: CVPixelBuffer, pool: CVPixelBufferPool, bytes: UnsafeMutableRawPointer) {
    var out: CVPixelBuffer?
    let attributes = [
        kCVPixelBufferCGImageCompatibilityKey: kCFBooleanTrue!, kCVPixelBufferCGBitmapContextCompatibilityKey: kCFBooleanTrue!,
    ] as CFDictionary
    let created: CVReturn = CVPixelBufferCreate(kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32ARGB, attributes, &out)
    let literal: CVReturn = CVPixelBufferCreate(kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32BGRA, [kCVPixelBufferIOSurfacePropertiesKey: [:]] as CFDictionary, &out)
    let wrapped: CVReturn = CVPixelBufferCreateWithBytes(kCFAllocatorDefault, 4, 4, kCVPixelFormatType_32BGRA, bytes, 16, nil, nil, attributes, &out)
    var newPool: CVPixelBufferPool?
    let poolAttributes = [kCVPixelBufferPoolMinimumBufferCountKey: 3] as CFDictionary
    let poolCreated: CVReturn = CVPixelBufferPoolCreate(kCFAllocatorDefault, poolAttributes, attributes, &newPool)
    let withAux: CVReturn = CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
        kCFAllocatorDefault, pool, [kCVPixelBufferPoolAllocationThresholdKey: 4] as CFDictionary, &out)
    let compatible: Bool = CVPixelBufferIsCompatibleWithAttributes(pixelBuffer, attributes)
    var resolved: CFDictionary?
    let resolving: CVReturn = CVPixelBufferCreateResolvedAttributesDictionary(kCFAllocatorDefault, [attributes] as CFArray, &resolved)
    CVBufferSetAttachments(pixelBuffer, [kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_P3_D65] as CFDictionary, .shouldPropagate)
    CVBufferSetAttachment(pixelBuffer, "com.example.key" as CFString, kCFBooleanTrue!, .shouldNotPropagate)
    _ = (created, literal, wrapped, poolCreated, withAux, compatible, resolving)
}
