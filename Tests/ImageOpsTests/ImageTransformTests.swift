import Testing

@testable import CaptureCore
@testable import ImageOps

/// An RGB colour in 0...255, as the tests paint and read it.
private struct RGB: Equatable, CustomStringConvertible {
    var r: Double, g: Double, b: Double
    init(_ r: Double, _ g: Double, _ b: Double) { (self.r, self.g, self.b) = (r, g, b) }
    var description: String { "(\(Int(r.rounded())), \(Int(g.rounded())), \(Int(b.rounded())))" }

    func isClose(to other: RGB, within tolerance: Double) -> Bool {
        abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
    }
}

// Reference BT.709 maths in floating point, written independently of the library's
// fixed-point encoder and of libyuv's decoder so each checks the other.
private let kr = 0.2126, kb = 0.0722

private func encode(_ c: RGB, fullRange: Bool) -> (y: UInt8, cb: UInt8, cr: UInt8) {
    let y = kr * c.r + (1 - kr - kb) * c.g + kb * c.b
    let cb = (c.b - y) / (2 * (1 - kb)), cr = (c.r - y) / (2 * (1 - kr))
    func byte(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
    if fullRange { return (byte(y), byte(128 + cb), byte(128 + cr)) }
    return (byte(16 + y * 219 / 255), byte(128 + cb * 224 / 255), byte(128 + cr * 224 / 255))
}

private func decode(y: UInt8, cb: UInt8, cr: UInt8, fullRange: Bool) -> RGB {
    let luma = fullRange ? Double(y) : (Double(y) - 16) * 255 / 219
    let chromaScale = fullRange ? 1 : 255.0 / 224
    let u = (Double(cb) - 128) * chromaScale, v = (Double(cr) - 128) * chromaScale
    let g = luma - (2 * kb * (1 - kb) * u + 2 * kr * (1 - kr) * v) / (1 - kr - kb)
    return RGB(luma + 2 * (1 - kr) * v, g, luma + 2 * (1 - kb) * u)
}

// Direct sample access. Test-only: buffers outlive every pointer taken here.

private func byteAt(_ buffer: CVBuffer, plane: Int, _ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
    buffer.planeAddress(plane).assumingMemoryBound(to: UInt8.self) + y * buffer.bytesPerRow(plane) + x
}

/// Sample `index` of row `y` of `plane`, in 8-bit units: 10-bit samples ('x420', 'xf20') are
/// narrowed (video range ÷4, full range ×255/1023 about zero: 0 for luma, 512 for chroma).
private func sample(_ buffer: CVBuffer, plane: Int, _ index: Int, _ y: Int) -> UInt8 {
    guard buffer.format.isTenBit else { return byteAt(buffer, plane: plane, index, y).pointee }
    let word = (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)[index]
    let value = Double(word >> 6)
    guard buffer.format.isFullRange else { return UInt8(min(255, (value / 4).rounded())) }
    let zero10 = plane == 0 ? 0.0 : 512, zero8 = plane == 0 ? 0.0 : 128
    return UInt8(min(255, max(0, ((value - zero10) * 255 / 1023 + zero8).rounded())))
}

/// Writes an 8-bit-unit sample, widened for 10-bit formats (the inverse of `sample`).
private func setSample(_ buffer: CVBuffer, plane: Int, _ index: Int, _ y: Int, _ value: UInt8) {
    guard buffer.format.isTenBit else {
        byteAt(buffer, plane: plane, index, y).pointee = value
        return
    }
    let zero10 = plane == 0 ? 0.0 : 512, zero8 = plane == 0 ? 0.0 : 128
    let full = min(1023, max(0, ((Double(value) - zero8) * 1023 / 255 + zero10).rounded()))
    let wide = buffer.format.isFullRange ? Int(full) : Int(value) * 4
    (buffer.planeAddress(plane) + y * buffer.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self)[index] = UInt16(wide) << 6
}

private func lumaAt(_ buffer: CVBuffer, _ x: Int, _ y: Int) -> UInt8 { sample(buffer, plane: 0, x, y) }

private func chromaAt(_ buffer: CVBuffer, _ x: Int, _ y: Int) -> (cb: UInt8, cr: UInt8) {
    if buffer.format.planeCount == 2 {
        return (sample(buffer, plane: 1, x / 2 * 2, y / 2), sample(buffer, plane: 1, x / 2 * 2 + 1, y / 2))
    }
    return (sample(buffer, plane: 1, x / 2, y / 2), sample(buffer, plane: 2, x / 2, y / 2))
}

private func setPixel(_ buffer: CVBuffer, _ x: Int, _ y: Int, luma: UInt8, cb: UInt8 = 128, cr: UInt8 = 128) {
    setSample(buffer, plane: 0, x, y, luma)
    // Chroma is shared by a 2x2 block: the block's top-left pixel decides.
    guard x % 2 == 0, y % 2 == 0 else { return }
    if buffer.format.planeCount == 2 {
        setSample(buffer, plane: 1, x, y / 2, cb)
        setSample(buffer, plane: 1, x + 1, y / 2, cr)
    } else {
        setSample(buffer, plane: 1, x / 2, y / 2, cb)
        setSample(buffer, plane: 2, x / 2, y / 2, cr)
    }
}

private func rgbAt(_ buffer: CVBuffer, _ x: Int, _ y: Int) -> RGB {
    if buffer.format == .bgra {
        let p = byteAt(buffer, plane: 0, x * 4, y)
        return RGB(Double(p[2]), Double(p[1]), Double(p[0]))
    }
    let chroma = chromaAt(buffer, x, y)
    return decode(y: lumaAt(buffer, x, y), cb: chroma.cb, cr: chroma.cr, fullRange: buffer.format.isFullRange)
}

private func paint(_ buffer: CVBuffer, _ colour: (Int, Int) -> RGB) {
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            let c = colour(x, y)
            if buffer.format == .bgra {
                let p = byteAt(buffer, plane: 0, x * 4, y)
                (p[0], p[1], p[2], p[3]) = (UInt8(c.b), UInt8(c.g), UInt8(c.r), 255)
            } else {
                let e = encode(c, fullRange: buffer.format.isFullRange)
                setPixel(buffer, x, y, luma: e.y, cb: e.cb, cr: e.cr)
            }
        }
    }
}

/// Where source pixel (x, y) of a `width` x `height` picture lands: rotated clockwise, then mirrored.
private func destinationPoint(
    _ x: Int, _ y: Int, width: Int, height: Int, rotation: Rotation, mirrored: Bool
) -> (x: Int, y: Int) {
    var point: (x: Int, y: Int)
    switch rotation {
    case .none: point = (x, y)
    case .clockwise90: point = (height - 1 - y, x)
    case .clockwise180: point = (width - 1 - x, height - 1 - y)
    case .clockwise270: point = (y, width - 1 - x)
    }
    if mirrored { point.x = rotation.rotatedSize(width: width, height: height).width - 1 - point.x }
    return point
}

private func makeDestination(for source: CVBuffer, _ format: PixelFormat, _ rotation: Rotation) -> CVBuffer {
    let size = rotation.rotatedSize(width: source.width, height: source.height)
    return CVBuffer(format: format, width: size.width, height: size.height)
}

private let orientations: [(Rotation, Bool)] = Rotation.allCases.flatMap { [($0, false), ($0, true)] }

private let quadrantColours = [RGB(200, 60, 60), RGB(60, 190, 70), RGB(50, 70, 210), RGB(190, 180, 60)]

@Suite struct ImageTransformTests {
    /// A 64x32 full-range picture, left half luma 200, right half 50.
    private func halves(_ format: PixelFormat = .yuv420BiPlanarFullRange) -> CVBuffer {
        let buffer = CVBuffer(format: format, width: 64, height: 32)
        for y in 0..<32 { for x in 0..<64 { setPixel(buffer, x, y, luma: x < 32 ? 200 : 50) } }
        return buffer
    }

    @Test func rotatingClockwiseMovesTheLeftHalfToTheTop() {
        let source = halves()
        let turned = CVBuffer(format: .yuv420BiPlanarFullRange, width: 32, height: 64)
        #expect(ImageTransform.transform(source, into: turned, rotation: .clockwise90, mirrored: false))
        for y in 0..<64 {
            for x in 0..<32 { #expect(lumaAt(turned, x, y) == (y < 32 ? 200 : 50), "at \(x),\(y)") }
        }
        // Counter-clockwise (270) puts the left half at the bottom instead.
        #expect(ImageTransform.transform(source, into: turned, rotation: .clockwise270, mirrored: false))
        #expect(lumaAt(turned, 5, 10) == 50)
        #expect(lumaAt(turned, 5, 50) == 200)
        #expect(chromaAt(turned, 5, 50) == (128, 128))
    }

    @Test func mirroringSwapsLeftAndRight() {
        let source = halves(.yuv420PlanarFullRange)
        let mirrored = CVBuffer(format: .yuv420PlanarFullRange, width: 64, height: 32)
        #expect(ImageTransform.transform(source, into: mirrored, rotation: .none, mirrored: true))
        #expect(lumaAt(mirrored, 0, 0) == 50)
        #expect(lumaAt(mirrored, 31, 31) == 50)
        #expect(lumaAt(mirrored, 32, 0) == 200)
        #expect(lumaAt(mirrored, 63, 31) == 200)
    }

    @Test func turningThenMirroringTransposes() {
        // Every pixel is unique: blue holds x, green holds y.
        let source = CVBuffer(format: .bgra, width: 8, height: 4)
        paint(source) { x, y in RGB(0, Double(y), Double(x)) }
        let transposed = CVBuffer(format: .bgra, width: 4, height: 8)
        #expect(ImageTransform.transform(source, into: transposed, rotation: .clockwise90, mirrored: true))
        for y in 0..<8 {
            for x in 0..<4 { #expect(rgbAt(transposed, x, y) == RGB(0, Double(x), Double(y)), "at \(x),\(y)") }
        }
    }

    @Test func everyOrientationMovesEveryPixelOfBGRA() {
        let source = CVBuffer(format: .bgra, width: 6, height: 4)
        paint(source) { x, y in RGB(Double(x * 10 + y), Double(y), Double(x)) }
        for (rotation, mirrored) in orientations {
            let destination = makeDestination(for: source, .bgra, rotation)
            #expect(ImageTransform.transform(source, into: destination, rotation: rotation, mirrored: mirrored))
            for y in 0..<4 {
                for x in 0..<6 {
                    let p = destinationPoint(x, y, width: 6, height: 4, rotation: rotation, mirrored: mirrored)
                    #expect(rgbAt(destination, p.x, p.y) == rgbAt(source, x, y), "\(rotation) mirrored \(mirrored)")
                }
            }
        }
    }

    @Test func everyOrientationMovesEveryLumaSample() {
        for format in [PixelFormat.yuv420BiPlanarVideoRange, .yuv420PlanarVideoRange] {
            for target in [PixelFormat.yuv420BiPlanarVideoRange, .yuv420PlanarVideoRange] {
                let source = CVBuffer(format: format, width: 6, height: 4)
                for y in 0..<4 { for x in 0..<6 { setPixel(source, x, y, luma: UInt8(20 + x * 10 + y)) } }
                for (rotation, mirrored) in orientations {
                    let destination = makeDestination(for: source, target, rotation)
                    #expect(ImageTransform.transform(source, into: destination, rotation: rotation, mirrored: mirrored))
                    for y in 0..<4 {
                        for x in 0..<6 {
                            let p = destinationPoint(x, y, width: 6, height: 4, rotation: rotation, mirrored: mirrored)
                            #expect(lumaAt(destination, p.x, p.y) == lumaAt(source, x, y), "\(format.fourCC)->\(target.fourCC) \(rotation) \(mirrored)")
                        }
                    }
                }
            }
        }
    }

    /// Four coloured quadrants survive every format pair, rotation and mirroring in the right place.
    @Test(arguments: PixelFormat.pictureFormats, PixelFormat.pictureFormats)
    func quadrantsLandWhereTheTransformPutsThem(from format: PixelFormat, to target: PixelFormat) {
        let source = CVBuffer(format: format, width: 64, height: 32)
        paint(source) { x, y in quadrantColours[(x < 32 ? 0 : 1) + (y < 16 ? 0 : 2)] }
        for (rotation, mirrored) in orientations {
            let destination = makeDestination(for: source, target, rotation)
            #expect(ImageTransform.transform(source, into: destination, rotation: rotation, mirrored: mirrored))
            for (x, y) in [(16, 8), (48, 8), (16, 24), (48, 24)] {
                let p = destinationPoint(x, y, width: 64, height: 32, rotation: rotation, mirrored: mirrored)
                let expected = rgbAt(source, x, y), actual = rgbAt(destination, p.x, p.y)
                #expect(actual.isClose(to: expected, within: 5),
                        "\(format.fourCC)->\(target.fourCC) \(rotation) mirrored \(mirrored): \(actual) vs \(expected)")
            }
        }
    }

    @Test(arguments: PixelFormat.pictureFormats, PixelFormat.pictureFormats)
    func midGreyCrossesEveryPair(from format: PixelFormat, to target: PixelFormat) {
        let grey = RGB(128, 128, 128)
        let source = CVBuffer(format: format, width: 16, height: 8)
        paint(source) { _, _ in grey }
        for (rotation, mirrored) in orientations {
            let destination = makeDestination(for: source, target, rotation)
            #expect(ImageTransform.transform(source, into: destination, rotation: rotation, mirrored: mirrored))
            for y in 0..<destination.height {
                for x in 0..<destination.width {
                    let actual = rgbAt(destination, x, y)
                    #expect(actual.isClose(to: grey, within: 2), "\(format.fourCC)->\(target.fourCC) \(rotation): \(actual)")
                }
            }
            // And back to the source format.
            let back = CVBuffer(format: format, width: 16, height: 8)
            let undo: Rotation = rotation.swapsDimensions ? .clockwise90 : .none
            #expect(ImageTransform.transform(destination, into: back, rotation: undo, mirrored: false))
            #expect(rgbAt(back, 7, 3).isClose(to: grey, within: 3), "round trip \(format.fourCC)->\(target.fourCC)")
        }
    }

    @Test func pureRedEncodesWithBT709() {
        let red = CVBuffer(format: .bgra, width: 4, height: 2)
        paint(red) { _, _ in RGB(255, 0, 0) }
        let video = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 4, height: 2)
        #expect(ImageTransform.transform(red, into: video, rotation: .none, mirrored: false))
        #expect(lumaAt(video, 3, 1) == 63)
        #expect(chromaAt(video, 0, 0) == (102, 240))
        let full = CVBuffer(format: .yuv420PlanarFullRange, width: 4, height: 2)
        #expect(ImageTransform.transform(red, into: full, rotation: .none, mirrored: false))
        #expect(lumaAt(full, 0, 0) == 54)
        #expect(chromaAt(full, 2, 0) == (99, 255))
        // And libyuv decodes it back with the same matrix.
        let decoded = CVBuffer(format: .bgra, width: 4, height: 2)
        #expect(ImageTransform.transform(video, into: decoded, rotation: .none, mirrored: false))
        #expect(rgbAt(decoded, 1, 1).isClose(to: RGB(255, 0, 0), within: 3), "\(rgbAt(decoded, 1, 1))")
    }

    @Test func blackAndWhiteUseTheWholeRange() {
        let source = CVBuffer(format: .bgra, width: 4, height: 2)
        paint(source) { x, _ in x < 2 ? RGB(0, 0, 0) : RGB(255, 255, 255) }
        for (format, black, white) in [(PixelFormat.yuv420PlanarVideoRange, 16, 235), (.yuv420PlanarFullRange, 0, 255)] {
            let yuv = CVBuffer(format: format, width: 4, height: 2)
            #expect(ImageTransform.transform(source, into: yuv, rotation: .none, mirrored: false))
            #expect(lumaAt(yuv, 0, 0) == black)
            #expect(lumaAt(yuv, 3, 1) == white)
            #expect(chromaAt(yuv, 0, 0) == (128, 128))
            #expect(chromaAt(yuv, 2, 0) == (128, 128))
        }
    }

    @Test(arguments: [PixelFormat.yuv420BiPlanarVideoRange, .yuv420PlanarVideoRange])
    func fullRangeSamplesAreRescaledToVideoRange(to target: PixelFormat) {
        for format in [PixelFormat.yuv420BiPlanarFullRange, .yuv420PlanarFullRange] {
            // Left block: everything at 0; right block: everything at 255.
            let source = CVBuffer(format: format, width: 4, height: 2)
            for y in 0..<2 {
                for x in 0..<4 {
                    let v: UInt8 = x < 2 ? 0 : 255
                    setPixel(source, x, y, luma: v, cb: v, cr: v)
                }
            }
            for rotation in [Rotation.none, .clockwise90] {
                let video = makeDestination(for: source, target, rotation)
                #expect(ImageTransform.transform(source, into: video, rotation: rotation, mirrored: false))
                let low = (0, 0), high = rotation == .none ? (3, 1) : (1, 3)
                #expect(lumaAt(video, low.0, low.1) == 16)
                #expect(lumaAt(video, high.0, high.1) == 235)
                #expect(chromaAt(video, low.0, low.1) == (16, 16))
                #expect(chromaAt(video, high.0, high.1) == (240, 240))
                // And back: video range extremes stretch to 0 and 255.
                let full = CVBuffer(format: format, width: video.width, height: video.height)
                #expect(ImageTransform.transform(video, into: full, rotation: .none, mirrored: false))
                #expect(lumaAt(full, low.0, low.1) == 0)
                #expect(lumaAt(full, high.0, high.1) == 255)
                #expect(chromaAt(full, low.0, low.1) == (0, 0))
                #expect(chromaAt(full, high.0, high.1) == (255, 255))
            }
        }
    }

    @Test func videoRangeMidpointsStayPut() {
        let source = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 2, height: 2)
        for y in 0..<2 { for x in 0..<2 { setPixel(source, x, y, luma: 126, cb: 128, cr: 128) } }
        let full = CVBuffer(format: .yuv420PlanarFullRange, width: 2, height: 2)
        #expect(ImageTransform.transform(source, into: full, rotation: .clockwise180, mirrored: true))
        // (126 - 16) * 255 / 219 = 128.08
        #expect(lumaAt(full, 1, 1) == 128)
        #expect(chromaAt(full, 0, 0) == (128, 128))
    }

    @Test(arguments: [RGB(128, 128, 128), RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255), RGB(30, 140, 220), RGB(250, 250, 5)])
    fileprivate func flatColoursRoundTripThroughEveryYCbCrFormat(_ colour: RGB) {
        let source = CVBuffer(format: .bgra, width: 8, height: 4)
        paint(source) { _, _ in colour }
        for format in PixelFormat.pictureFormats where format.isYUV {
            let yuv = CVBuffer(format: format, width: 8, height: 4)
            let back = CVBuffer(format: .bgra, width: 8, height: 4)
            #expect(ImageTransform.transform(source, into: yuv, rotation: .none, mirrored: false))
            #expect(ImageTransform.transform(yuv, into: back, rotation: .none, mirrored: false))
            for y in 0..<4 {
                for x in 0..<8 {
                    #expect(rgbAt(back, x, y).isClose(to: colour, within: 3), "\(format.fourCC): \(rgbAt(back, x, y)) vs \(colour)")
                }
            }
        }
    }

    @Test(arguments: PixelFormat.pictureFormats)
    func oddSizesAreHandled(_ format: PixelFormat) {
        let source = CVBuffer(format: .bgra, width: 33, height: 17)
        paint(source) { x, y in quadrantColours[(x < 16 ? 0 : 1) + (y < 8 ? 0 : 2)] }
        for (rotation, mirrored) in orientations {
            let destination = makeDestination(for: source, format, rotation)
            #expect(ImageTransform.transform(source, into: destination, rotation: rotation, mirrored: mirrored))
            // Corners, where odd sizes leave half-empty chroma blocks.
            for (x, y) in [(0, 0), (32, 0), (0, 16), (32, 16)] {
                let p = destinationPoint(x, y, width: 33, height: 17, rotation: rotation, mirrored: mirrored)
                let actual = rgbAt(destination, p.x, p.y)
                #expect(actual.isClose(to: rgbAt(source, x, y), within: 5), "\(format.fourCC) \(rotation) \(mirrored): \(actual)")
            }
        }
    }

    @Test func mismatchedSizesAreRejected() {
        let source = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 32)
        let same = CVBuffer(format: .bgra, width: 64, height: 32)
        let swapped = CVBuffer(format: .bgra, width: 32, height: 64)
        #expect(!ImageTransform.transform(source, into: swapped, rotation: .none, mirrored: false))
        #expect(!ImageTransform.transform(source, into: swapped, rotation: .clockwise180, mirrored: true))
        #expect(!ImageTransform.transform(source, into: same, rotation: .clockwise90, mirrored: false))
        #expect(!ImageTransform.transform(source, into: CVBuffer(format: .bgra, width: 63, height: 32), rotation: .none, mirrored: false))
        #expect(!ImageTransform.transform(source, into: source, rotation: .none, mirrored: false))
        // Rejection leaves the destination untouched.
        #expect(rgbAt(swapped, 0, 0) == RGB(0, 0, 0))
    }

    @Test(arguments: PixelFormat.pictureFormats)
    func scalingKeepsEachHalfInPlace(_ format: PixelFormat) {
        let source = CVBuffer(format: format, width: 64, height: 32)
        paint(source) { x, _ in x < 32 ? RGB(200, 200, 200) : RGB(50, 50, 50) }
        for (width, height) in [(32, 16), (16, 8), (128, 64), (20, 10)] {
            let scaled = CVBuffer(format: format, width: width, height: height)
            #expect(ImageTransform.scale(source, into: scaled))
            let left = rgbAt(scaled, 1, height / 2), right = rgbAt(scaled, width - 2, height / 2)
            // Libyuv's box filter truncates its averages at fractional ratios: samples can come
            // out one code low, which video-range chroma stretches to about 2 in red and blue.
            #expect(left.isClose(to: RGB(200, 200, 200), within: 4), "\(format.fourCC) \(width)x\(height): \(left)")
            #expect(right.isClose(to: RGB(50, 50, 50), within: 4), "\(format.fourCC) \(width)x\(height): \(right)")
        }
    }

    @Test func scalingNeedsTheSameFormat() {
        let source = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 32)
        #expect(!ImageTransform.scale(source, into: CVBuffer(format: .yuv420BiPlanarFullRange, width: 32, height: 16)))
        #expect(!ImageTransform.scale(source, into: CVBuffer(format: .bgra, width: 32, height: 16)))
        #expect(!ImageTransform.scale(source, into: source))
    }

    @Test func decodeMatrixIsAlignedForLibyuvVectorLoads() {
        // A misaligned matrix crashes libyuv's AVX2 path, and only sometimes.
        #expect(Int(bitPattern: DecodeMatrix.bt709FullRange.pointer) % 32 == 0)
    }

    @Test func scratchBuffersAreReused() {
        let pool = ScratchPool()
        let first = pool.withBuffer(format: .bgra, width: 40, height: 30) { ObjectIdentifier($0) }
        let second = pool.withBuffer(format: .bgra, width: 40, height: 30) { ObjectIdentifier($0) }
        let other = pool.withBuffer(format: .bgra, width: 30, height: 40) { ObjectIdentifier($0) }
        #expect(first == second)
        #expect(first != other)
        // Nested use gets a second buffer rather than sharing one.
        pool.withBuffer(format: .bgra, width: 40, height: 30) { outer in
            pool.withBuffer(format: .bgra, width: 40, height: 30) { inner in #expect(outer !== inner) }
        }
    }
}

@Suite("ImageTransform colour matrix tags")
struct ImageTransformMatrixTagTests {
    /// A V4L2 frame is BT.601 (tagged ITU_R_601_4): decoding it with BT.709 would shift a
    /// saturated yellow's green by about 15 codes; the tag picks the right matrix.
    @Test(arguments: [false, true])
    func bt601TaggedFramesDecodeWithBT601(rotated: Bool) {
        // Yellow (255, 255, 0) in full-range BT.601: Y' 226, Cb 1, Cr 149.
        let source = CVBuffer(format: .yuv420BiPlanarFullRange, width: 16, height: 16)
        source.planeAddress(0).initializeMemory(as: UInt8.self, repeating: 226, count: source.bytesPerRow(0) * 16)
        let chroma = source.planeAddress(1).assumingMemoryBound(to: UInt8.self)
        for i in stride(from: 0, to: source.bytesPerRow(1) * 8, by: 2) {
            chroma[i] = 1
            chroma[i + 1] = 149
        }
        func decoded(tag: String?) -> (b: Int, g: Int, r: Int) {
            source.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] = tag }
            let out = CVBuffer(format: .bgra, width: 16, height: 16)
            #expect(ImageTransform.transform(source, into: out, rotation: rotated ? .clockwise90 : .none, mirrored: false))
            let p = out.planeAddress(0).assumingMemoryBound(to: UInt8.self) + 8 * out.bytesPerRow(0) + 8 * 4
            return (Int(p[0]), Int(p[1]), Int(p[2]))
        }
        let bt601 = decoded(tag: kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        #expect(bt601.b <= 3 && bt601.g >= 251 && bt601.r >= 251, "\(bt601)")
        let untagged = decoded(tag: nil)
        #expect(untagged.g < 245, "BT.709 reads the same codes differently: \(untagged)")
    }
}
