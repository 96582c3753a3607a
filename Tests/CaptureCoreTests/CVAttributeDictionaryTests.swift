import Foundation
import Testing
@testable import CaptureCore

/// Core Video's functions with Core Foundation dictionaries, as iOS code passes them
/// (`... as CFDictionary`, a `CFDictionary` built elsewhere, a literal, `nil`): each reads the
/// same attributes as the `[String: Any]` form.
@Suite("Core Video attributes as CFDictionary")
struct CVAttributeDictionaryTests {
    static var bgra640: CFDictionary {
        [
            kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey: 640, kCVPixelBufferHeightKey: 480,
        ] as CFDictionary
    }

    @Test("a pool made from CFDictionary attributes has their size, format and buffer limit")
    func poolFromCoreFoundationAttributes() throws {
        var pool: CVPixelBufferPool?
        let poolAttributes = [kCVPixelBufferPoolMaximumBufferCountKey: 2] as CFDictionary
        #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, poolAttributes, Self.bgra640, &pool) == kCVReturnSuccess)
        let made = try #require(pool)
        var first: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(nil, made, &first) == kCVReturnSuccess)
        let buffer = try #require(first)
        #expect(CVPixelBufferGetWidth(buffer) == 640 && CVPixelBufferGetHeight(buffer) == 480)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        // With one buffer out, a threshold of one refuses the next, read from a CFDictionary.
        var second: CVPixelBuffer?
        let threshold = [kCVPixelBufferPoolAllocationThresholdKey: 1] as CFDictionary
        #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, made, threshold, &second) == kCVReturnWouldExceedAllocationThreshold)
        #expect(second == nil)
        // A pool without the size in its CFDictionary fails as the Swift form does.
        var none: CVPixelBufferPool?
        let sizeless = [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA] as CFDictionary
        #expect(CVPixelBufferPoolCreate(nil, nil, sizeless, &none) != kCVReturnSuccess)
        #expect(none == nil)
    }

    @Test("a buffer made with CFDictionary attributes, or nil, is made; compatibility reads the CFDictionary")
    func createAndCompatibility() throws {
        var out: CVPixelBuffer?
        let options = [kCVPixelBufferCGImageCompatibilityKey: kCFBooleanTrue!, kCVPixelBufferIOSurfacePropertiesKey: [:] as CFDictionary] as CFDictionary
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 640, 480, kCVPixelFormatType_32BGRA, options, &out) == kCVReturnSuccess)
        #expect(CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &out) == kCVReturnSuccess)
        let buffer = try #require(out)
        #expect(!CVPixelBufferIsCompatibleWithAttributes(buffer, Self.bgra640))
        let matching = [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelBufferWidthKey: 64] as CFDictionary
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, matching))
        #expect(CVPixelBufferIsCompatibleWithAttributes(buffer, nil))
    }

    @Test("a buffer over caller-owned bytes takes CFDictionary attributes and calls back on release")
    func withBytes() throws {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16 * 4 * 8, alignment: 64)
        defer { bytes.deallocate() }
        var out: CVPixelBuffer?
        #expect(CVPixelBufferCreateWithBytes(nil, 16, 8, kCVPixelFormatType_32BGRA, bytes, 64, nil, nil, Self.bgra640, &out) == kCVReturnSuccess)
        let buffer = try #require(out)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        #expect(CVPixelBufferGetBaseAddress(buffer) == bytes)
        CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
    }

    @Test("resolved attributes: a CFArray of CFDictionaries merges, later ones win; a non-dictionary element is refused")
    func resolvedAttributes() throws {
        let first = [kCVPixelBufferWidthKey: 320, kCVPixelBufferHeightKey: 240] as CFDictionary
        let second = [kCVPixelBufferWidthKey: 640] as CFDictionary
        var resolved: CFDictionary?
        #expect(CVPixelBufferCreateResolvedAttributesDictionary(nil, [first, second] as CFArray, &resolved) == kCVReturnSuccess)
        let merged = try #require(resolved as? [String: Any])
        #expect(integer(merged[kCVPixelBufferWidthKey]) == 640 && integer(merged[kCVPixelBufferHeightKey]) == 240)
        #expect((merged[kCVPixelBufferCGImageCompatibilityKey] as? NSNumber)?.boolValue == true)
        var refused: CFDictionary?
        #expect(CVPixelBufferCreateResolvedAttributesDictionary(nil, [first, 7] as CFArray, &refused) == kCVReturnInvalidArgument)
        #expect(refused == nil)
    }

    @Test("attachments set from a CFDictionary and under a CFString key are the buffer's, with their mode")
    func attachments() throws {
        var out: CVPixelBuffer?
        CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &out)
        let buffer = try #require(out)
        let tags = [kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_P3_D65] as CFDictionary
        CVBufferSetAttachments(buffer, tags, .shouldPropagate)
        CVBufferSetAttachment(buffer, "com.example.frame" as CFString, 7 as NSNumber, .shouldNotPropagate)
        var mode = CVAttachmentMode.shouldPropagate
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, &mode) as? String == kCVImageBufferColorPrimaries_P3_D65)
        #expect(mode == .shouldPropagate)
        #expect(integer(CVBufferCopyAttachment(buffer, "com.example.frame", &mode)) == 7)
        #expect(mode == .shouldNotPropagate)
        #expect(CVBufferCopyAttachments(buffer, .shouldPropagate)?["com.example.frame"] == nil)
    }
}
