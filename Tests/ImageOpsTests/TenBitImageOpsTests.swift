import Testing

@testable import CaptureCore
@testable import ImageOps

/// The stored word of 10-bit sample `index` of row `y` of `plane`.
private func word(_ buffer: CVBuffer, _ plane: Int, _ index: Int, _ y: Int) -> UnsafeMutablePointer<UInt16> {
    (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self) + index
}

private func byte(_ buffer: CVBuffer, _ plane: Int, _ index: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
    (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt8.self) + index
}

/// Samples per row of each plane of an NV12-layout buffer (CbCr counts two per pair).
private func samplesPerRow(_ buffer: CVBuffer, _ plane: Int) -> Int { buffer.planes[plane].width * (plane == 0 ? 1 : 2) }

/// A 10-bit buffer of pseudo-random values inside the format's range.
private func noise(_ format: PixelFormat, width: Int = 34, height: Int = 18) -> CVBuffer {
    let buffer = CVBuffer(format: format, width: width, height: height)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for plane in 0..<2 {
        let range = format.isFullRange ? 0...1023 : plane == 0 ? 64...940 : 64...960
        for y in 0..<buffer.planes[plane].height {
            for x in 0..<samplesPerRow(buffer, plane) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let value = range.lowerBound + Int(state >> 33) % range.count
                word(buffer, plane, x, y).pointee = UInt16(value) << 6
            }
        }
    }
    return buffer
}

@Suite("TenBit ImageOps ('x420', 'xf20')")
struct TenBitImageOpsTests {
    /// Turning and mirroring 10-bit buffers moves words without touching a bit: four turns
    /// of 90°, or a mirror twice, give the picture back exactly; 90° puts the top-left
    /// sample top-right.
    @Test(arguments: [PixelFormat.yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange])
    func orientingKeepsEveryBit(_ format: PixelFormat) {
        let source = noise(format)
        var current = source
        for _ in 0..<4 {
            let turned = CVBuffer(format: format, width: current.height, height: current.width)
            #expect(ImageTransform.transform(current, into: turned, rotation: .clockwise90, mirrored: false))
            if current === source { #expect(word(turned, 0, turned.width - 1, 0).pointee == word(source, 0, 0, 0).pointee) }
            current = turned
        }
        let mirrored = CVBuffer(format: format, width: source.width, height: source.height)
        let back = CVBuffer(format: format, width: source.width, height: source.height)
        #expect(ImageTransform.transform(source, into: mirrored, rotation: .none, mirrored: true))
        #expect(ImageTransform.transform(mirrored, into: back, rotation: .none, mirrored: true))
        for candidate in [current, back] {
            for plane in 0..<2 {
                for y in 0..<source.planes[plane].height {
                    for x in 0..<samplesPerRow(source, plane) {
                        #expect(word(candidate, plane, x, y).pointee == word(source, plane, x, y).pointee)
                    }
                }
            }
        }
    }

    /// 8 → 10 bits is exact (video range ×4, full range about each zero), and back to 8 bits
    /// gives every code again.
    @Test(arguments: [PixelFormat.yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange])
    func eightBitCodesSurviveTenBits(_ format: PixelFormat) throws {
        let source = CVBuffer(format: format, width: 32, height: 16)
        for plane in 0..<2 {
            for y in 0..<source.planes[plane].height {
                for x in 0..<samplesPerRow(source, plane) { byte(source, plane, x, y).pointee = UInt8((x + 32 * y) % 256) }
            }
        }
        let wide = CVBuffer(format: try #require(format.tenBit), width: 32, height: 16)
        let back = CVBuffer(format: format, width: 32, height: 16)
        #expect(ImageTransform.transform(source, into: wide, rotation: .none, mirrored: false))
        #expect(ImageTransform.transform(wide, into: back, rotation: .none, mirrored: false))
        for plane in 0..<2 {
            for y in 0..<source.planes[plane].height {
                for x in 0..<samplesPerRow(source, plane) {
                    let code = Int(byte(source, plane, x, y).pointee), value = Int(word(wide, plane, x, y).pointee)
                    #expect(value & 0x3F == 0)
                    if !format.isFullRange { #expect(value >> 6 == 4 * code) }
                    #expect(byte(back, plane, x, y).pointee == UInt8(code))
                }
            }
        }
        if format.isFullRange {
            #expect(word(wide, 0, 255 % 32, 255 / 32).pointee >> 6 == 1023)  // luma 255 → 1023
            #expect(word(wide, 1, 0, 4).pointee >> 6 == 512)  // chroma 128 → 512
        }
    }

    /// Video → full → video range in 10 bits comes back within one code.
    @Test func rangeRoundTripInTenBits() {
        let source = noise(.yuv420TenBitBiPlanarVideoRange)
        let full = CVBuffer(format: .yuv420TenBitBiPlanarFullRange, width: source.width, height: source.height)
        let back = CVBuffer(format: .yuv420TenBitBiPlanarVideoRange, width: source.width, height: source.height)
        #expect(ImageTransform.transform(source, into: full, rotation: .none, mirrored: false))
        #expect(ImageTransform.transform(full, into: back, rotation: .none, mirrored: false))
        for plane in 0..<2 {
            for y in 0..<source.planes[plane].height {
                for x in 0..<samplesPerRow(source, plane) {
                    #expect(abs(Int(word(back, plane, x, y).pointee >> 6) - Int(word(source, plane, x, y).pointee >> 6)) <= 1)
                }
            }
        }
    }

    /// 10 bits → 8 bits rounds to the nearest code (video range ÷4).
    @Test func narrowingRounds() {
        let source = noise(.yuv420TenBitBiPlanarVideoRange)
        let narrow = CVBuffer(format: .yuv420BiPlanarVideoRange, width: source.width, height: source.height)
        #expect(ImageTransform.transform(source, into: narrow, rotation: .none, mirrored: false))
        for y in 0..<source.height {
            for x in 0..<source.width {
                let value = Double(word(source, 0, x, y).pointee >> 6)
                #expect(abs(Double(byte(narrow, 0, x, y).pointee) - value / 4) <= 0.5)
            }
        }
    }

    /// A flat colour through BGRA → 'xf20'/'x420' → BGRA, turned, comes back within 3 codes.
    @Test(arguments: [PixelFormat.yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange])
    func bgraRoundTrip(_ format: PixelFormat) {
        let source = CVBuffer(format: .bgra, width: 16, height: 8)
        let colour: [UInt8] = [40, 150, 210, 255]  // B, G, R, A
        for y in 0..<8 { for x in 0..<16 { for c in 0..<4 { byte(source, 0, 4 * x + c, y).pointee = colour[c] } } }
        let wide = CVBuffer(format: format, width: 8, height: 16)
        let back = CVBuffer(format: .bgra, width: 16, height: 8)
        #expect(ImageTransform.transform(source, into: wide, rotation: .clockwise90, mirrored: false))
        #expect(ImageTransform.transform(wide, into: back, rotation: .clockwise270, mirrored: false))
        for y in 0..<8 {
            for x in 0..<16 {
                for c in 0..<3 { #expect(abs(Int(byte(back, 0, 4 * x + c, y).pointee) - Int(colour[c])) <= 3) }
            }
        }
    }

    /// Scaling a 10-bit buffer keeps the two halves' values (libyuv's 16-bit scalers).
    @Test func scalingTenBits() {
        let source = CVBuffer(format: .yuv420TenBitBiPlanarVideoRange, width: 64, height: 32)
        for plane in 0..<2 {
            for y in 0..<source.planes[plane].height {
                for x in 0..<samplesPerRow(source, plane) {
                    let left = x < samplesPerRow(source, plane) / 2
                    word(source, plane, x, y).pointee = UInt16(plane == 0 ? (left ? 801 : 203) : (left ? 450 : 600)) << 6
                }
            }
        }
        let scaled = CVBuffer(format: .yuv420TenBitBiPlanarVideoRange, width: 32, height: 16)
        #expect(ImageTransform.scale(source, into: scaled))
        #expect(abs(Int(word(scaled, 0, 1, 8).pointee >> 6) - 801) <= 1 && abs(Int(word(scaled, 0, 30, 8).pointee >> 6) - 203) <= 1)
        #expect(abs(Int(word(scaled, 1, 0, 4).pointee >> 6) - 450) <= 1 && abs(Int(word(scaled, 1, 1, 4).pointee >> 6) - 450) <= 1)
        #expect(abs(Int(word(scaled, 1, 30, 4).pointee >> 6) - 600) <= 1 && abs(Int(word(scaled, 1, 31, 4).pointee >> 6) - 600) <= 1)
    }
}
