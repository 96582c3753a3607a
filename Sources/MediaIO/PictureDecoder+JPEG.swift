import CTurboJPEG
import CaptureCore

extension PictureDecoder {
    /// JPEG: checks the frame header against the file size, decodes at the smallest
    /// libjpeg-turbo scale that still covers `limit` (stopping at the first warning, such
    /// as a truncated scan), then averages down to the bound if the scale overshot it.
    static func decodeJPEG(_ jpeg: UnsafeBufferPointer<UInt8>, limit: Size) throws -> Picture {
        guard let frame = JPEGFrameHeader(jpeg) else { throw Failure(description: "bad JPEG: no frame header before the image data") }
        let source = Size(width: frame.width, height: frame.height)
        if frame.height == 0 { throw Failure(description: "bad JPEG: the height is left to a DNL marker, which is not supported") }
        try checkSourceSize(source, kind: "JPEG")
        // Every 8×8 block costs a Huffman code of at least a bit; arithmetic coding can go
        // below that, so only the decode itself (bounded, stopping at truncation) checks it.
        if !frame.isArithmetic, jpeg.count < frame.blockCount / 8 {
            throw Failure(
                description: "JPEG header claims \(source) but the file's \(jpeg.count) bytes cannot hold that "
                    + "(\(frame.blockCount) blocks need at least \(frame.blockCount / 8) bytes): truncated or corrupt")
        }
        // Scaling does not help here: libjpeg decodes every scan into whole-image coefficient
        // buffers first (a 1.5 MB progressive 16384x16384 file took 849 MB), so refuse.
        if frame.coefficientBytes > maximumProgressiveCoefficientBytes, frame.isProgressive || JPEGFrameHeader.scanCount(jpeg) > 1 {
            let kind = frame.isProgressive ? "progressive" : "multi-scan"
            throw Failure(
                description: "\(kind) JPEG of \(source) is refused, not scaled: decoding it holds "
                    + "\(frame.coefficientBytes >> 20) MiB of coefficients at any scale (at most \(maximumProgressiveCoefficientBytes >> 20) MiB); "
                    + "save it as a single-scan baseline JPEG or smaller")
        }
        let decompressor = try JPEGTurboHandle(.decompressor)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(decompressor.raw, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0,
            Int(width) == source.width, Int(height) == source.height
        else { throw Failure(description: "bad JPEG: \(decompressor.errorMessage)") }

        let scaled = scaledSize(source, covering: outputSize(source, limit: limit))
        // The m/8 steps are at most 2× apart, so this holds unless the picture is more than
        // eight times the bound on a side.
        guard scaled.width * scaled.height <= 4 * limit.width * limit.height else {
            throw Failure(description: "JPEG of \(source) is too large to scale down to \(limit)")
        }
        let size = outputSize(scaled, limit: limit)
        if size == scaled {
            let samples = PageBuffer(count: 3 * size.width * size.height)
            try decompress(jpeg, decompressor, scaled, into: samples.bytes)
            return Picture(width: size.width, height: size.height, samples: samples)
        }
        let count = 3 * scaled.width * scaled.height
        let scratch = PageMemory.allocate(UInt8.self, count: count)
        defer { PageMemory.deallocate(scratch, count: count) }
        try decompress(jpeg, decompressor, scaled, into: scratch)
        var resampler = PictureResampler(
            sourceWidth: scaled.width, sourceHeight: scaled.height, width: size.width, height: size.height)
        var linear = [Float](repeating: 0, count: 3 * scaled.width)
        SRGBCodes.linear.withUnsafeBufferPointer { table in
            linear.withUnsafeMutableBufferPointer { linear in
                for y in 0..<scaled.height {
                    let row = scratch + 3 * scaled.width * y
                    for i in 0..<(3 * scaled.width) { linear[i] = table[Int(row[i])] }
                    resampler.add(UnsafePointer(linear.baseAddress!))
                }
            }
        }
        return Picture(width: size.width, height: size.height, samples: resampler.output)
    }

    /// The smallest size libjpeg-turbo can decode `source` at that is at least `target` on
    /// both sides (the full size if none smaller is).
    static func scaledSize(_ source: Size, covering target: Size) -> Size {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return source }
        var best = source
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            let num = Int(factor.num), denom = Int(factor.denom)
            // TJSCALED: the scaled side, rounded up.
            let size = Size(width: (source.width * num + denom - 1) / denom, height: (source.height * num + denom - 1) / denom)
            if size.width >= target.width, size.height >= target.height, size.width * size.height < best.width * best.height {
                best = size
            }
        }
        return best
    }

    /// Decodes `jpeg` at `size` (one of its scaled sizes) as RGB rows of 3 × width bytes.
    private static func decompress(
        _ jpeg: UnsafeBufferPointer<UInt8>, _ decompressor: JPEGTurboHandle, _ size: Size, into rgb: UnsafeMutablePointer<UInt8>
    ) throws {
        let status = tjDecompress2(
            decompressor.raw, jpeg.baseAddress, UInt(jpeg.count), rgb, Int32(size.width), Int32(3 * size.width),
            Int32(size.height), Int32(TJPF_RGB.rawValue), TJFLAG_STOPONWARNING)
        guard status == 0 else {
            // A warning is most often "Premature end of JPEG file": the rest would be grey.
            let kind = decompressor.lastErrorIsWarning ? "truncated or corrupt JPEG" : "bad JPEG"
            throw Failure(description: "\(kind): \(decompressor.errorMessage)")
        }
    }
}
