// CVPixelFormatDescription.h, spelled as iOS code spells it.
import CoreVideo
import Foundation
import Testing

/// Touches the pixel-format-description declarations; compiled, never called.
func spellCVPixelFormatDescription() {
    let description: [String: Any]? = CVPixelFormatDescriptionCreateWithPixelFormatType(kCFAllocatorDefault, kCVPixelFormatType_32BGRA)
    let all: [Any]? = CVPixelFormatDescriptionArrayCreateWithAllPixelFormatTypes(kCFAllocatorDefault)
    CVPixelFormatDescriptionRegisterDescriptionWithPixelFormatType([kCVPixelFormatName: "custom"], 0x7465_7374)
    let keys: [String] = [
        kCVPixelFormatName, kCVPixelFormatConstant, kCVPixelFormatCodecType, kCVPixelFormatFourCC, kCVPixelFormatContainsAlpha,
        kCVPixelFormatContainsYCbCr, kCVPixelFormatContainsRGB, kCVPixelFormatContainsGrayscale, kCVPixelFormatContainsSenselArray,
        kCVPixelFormatComponentRange, kCVPixelFormatComponentRange_VideoRange, kCVPixelFormatComponentRange_FullRange,
        kCVPixelFormatComponentRange_WideRange, kCVPixelFormatPlanes, kCVPixelFormatBlockWidth, kCVPixelFormatBlockHeight,
        kCVPixelFormatBitsPerBlock, kCVPixelFormatBitsPerComponent, kCVPixelFormatBlockHorizontalAlignment,
        kCVPixelFormatBlockVerticalAlignment, kCVPixelFormatBlackBlock, kCVPixelFormatHorizontalSubsampling,
        kCVPixelFormatVerticalSubsampling, kCVPixelFormatOpenGLFormat, kCVPixelFormatOpenGLType,
        kCVPixelFormatOpenGLInternalFormat, kCVPixelFormatCGBitmapInfo, kCVPixelFormatQDCompatibility,
        kCVPixelFormatCGBitmapContextCompatibility, kCVPixelFormatCGImageCompatibility, kCVPixelFormatOpenGLCompatibility,
        kCVPixelFormatOpenGLESCompatibility, kCVPixelFormatFillExtendedPixelsCallback,
    ]
    _ = (description, all, keys)
}

@Suite("CVPixelFormatDescription spelling")
struct CVPixelFormatDescriptionSpellingTests {
    @Test("the descriptions say how each delivered format lies in memory")
    func describesDeliveredFormats() throws {
        let nv12 = try #require(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        #expect((nv12[kCVPixelFormatContainsYCbCr] as? NSNumber)?.boolValue == true)
        #expect((nv12[kCVPixelFormatContainsRGB] as? NSNumber)?.boolValue == false)
        #expect(nv12[kCVPixelFormatComponentRange] as? String == kCVPixelFormatComponentRange_VideoRange)
        let planes = try #require(nv12[kCVPixelFormatPlanes] as? [[String: Any]])
        #expect(planes.count == 2)
        #expect((planes[0][kCVPixelFormatBitsPerBlock] as? NSNumber)?.intValue == 8)
        #expect((planes[1][kCVPixelFormatBitsPerBlock] as? NSNumber)?.intValue == 16)
        #expect((planes[1][kCVPixelFormatHorizontalSubsampling] as? NSNumber)?.intValue == 2)
        #expect((planes[1][kCVPixelFormatVerticalSubsampling] as? NSNumber)?.intValue == 2)
        let bgra = try #require(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, kCVPixelFormatType_32BGRA))
        #expect((bgra[kCVPixelFormatBitsPerBlock] as? NSNumber)?.intValue == 32)
        #expect((bgra[kCVPixelFormatContainsAlpha] as? NSNumber)?.boolValue == true)
        #expect(bgra[kCVPixelFormatPlanes] == nil)
        let tenBit = try #require(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange))
        #expect((tenBit[kCVPixelFormatBitsPerComponent] as? NSNumber)?.intValue == 10)
        #expect(tenBit[kCVPixelFormatComponentRange] as? String == kCVPixelFormatComponentRange_FullRange)
        let bayer = try #require(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, kCVPixelFormatType_14Bayer_RGGB))
        #expect((bayer[kCVPixelFormatContainsSenselArray] as? NSNumber)?.boolValue == true)
        #expect((bayer[kCVPixelFormatBitsPerComponent] as? NSNumber)?.intValue == 14)
        #expect(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, kCVPixelFormatType_422YpCbCr8) == nil, "formats never made here have none")
    }

    @Test("the list holds every format a pixel buffer can be made in, and registered ones")
    func listAndRegister() throws {
        let custom: OSType = 0x6F63_7431  // 'oct1'
        let all = try #require(CVPixelFormatDescriptionArrayCreateWithAllPixelFormatTypes(nil) as? [NSNumber]).map(\.uint32Value)
        for format in all where format != custom {
            var buffer: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, 16, 16, format, nil, &buffer) == kCVReturnSuccess)
        }
        #expect(all.contains(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange) && all.contains(kCVPixelFormatType_32BGRA))
        CVPixelFormatDescriptionRegisterDescriptionWithPixelFormatType([kCVPixelFormatName: "OpenCapture test", kCVPixelFormatBitsPerBlock: 24], custom)
        #expect(CVPixelFormatDescriptionCreateWithPixelFormatType(nil, custom)?[kCVPixelFormatName] as? String == "OpenCapture test")
        let listed = try #require(CVPixelFormatDescriptionArrayCreateWithAllPixelFormatTypes(nil) as? [NSNumber]).map(\.uint32Value)
        #expect(listed.contains(custom))
    }
}

@Suite("CVPixelBufferPool buffer age")
struct CVPixelBufferPoolAgeSpellingTests {
    func makePool(age: Double?) throws -> CVPixelBufferPool {
        var pool: CVPixelBufferPool?
        var attributes: [String: Any] = [:]
        if let age { attributes[kCVPixelBufferPoolMaximumBufferAgeKey as String] = age }
        let buffers: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 16,
            kCVPixelBufferHeightKey as String: 16,
        ]
        #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, attributes, buffers, &pool) == kCVReturnSuccess)
        return try #require(pool)
    }

    /// Takes a buffer, says whether it carries the mark of an earlier use, marks it and
    /// gives it back to the pool (a reused buffer keeps what was attached to it).
    func takeAndMark(_ pool: CVPixelBufferPool) -> Bool {
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &buffer)
        guard let buffer else { return false }
        let reused = CVBufferHasAttachment(buffer, "UsedBefore")
        CVBufferSetAttachment(buffer, "UsedBefore", "yes", .shouldNotPropagate)
        return reused
    }

    @Test("a buffer unused for longer than the maximum age is freed; within it, or with ageing off, it is reused")
    func ageing() throws {
        let young = try makePool(age: 60)
        #expect(!takeAndMark(young))
        #expect(takeAndMark(young), "given back within the age: the same buffer again")
        #expect((CVPixelBufferPoolGetAttributes(young)?[kCVPixelBufferPoolMaximumBufferAgeKey] as? Double) == 60)
        let short = try makePool(age: 0.05)
        #expect(!takeAndMark(short))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!takeAndMark(short), "idle longer than the age: freed, a new buffer instead")
        let never = try makePool(age: 0)
        #expect(!takeAndMark(never))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(takeAndMark(never), "age 0: buffers never age out")
        #expect((CVPixelBufferPoolGetAttributes(never)?[kCVPixelBufferPoolMaximumBufferAgeKey] as? Double) == 0)
        let standard = try makePool(age: nil)
        #expect((CVPixelBufferPoolGetAttributes(standard)?[kCVPixelBufferPoolMaximumBufferAgeKey] as? Double) == 1, "Apple's default: one second")
    }
}
