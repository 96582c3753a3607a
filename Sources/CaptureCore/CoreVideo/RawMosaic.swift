/// The raw sensor data behind one frame (Linux addition): the Bayer mosaic as the sensor's
/// ADC produced it, before demosaicing, white balance or any other ISP step, black level
/// included. A simulated camera's frames carry it; a libcamera camera's raw photos are one.
///
/// Attached to the frame's pixel buffer under `kOpenCaptureRawMosaicKey` when the camera's
/// `deliversRawMosaic` is on. With video HDR it is the long exposure, before the merge.
public final class RawMosaic: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// The colour filter layout from the top-left photosite: "RGGB", "GRBG", "BGGR" or "GBRG".
    public let pattern: String
    /// The code of no light (the sensor's black level).
    public let blackLevel: Int
    /// The largest code the ADC gives (2^bits − 1).
    public let whiteLevel: Int
    /// `width`×`height` codes, row-major. Written by the camera before the buffer is
    /// delivered, read-only after.
    package let samples: UnsafeMutablePointer<UInt16>

    package init(width: Int, height: Int, blackLevel: Int, whiteLevel: Int, pattern: String = "RGGB") {
        self.pattern = pattern
        self.width = width
        self.height = height
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        samples = PageMemory.allocate(UInt16.self, count: max(width * height, 1))
    }

    deinit { PageMemory.deallocate(samples, count: max(width * height, 1)) }

    /// Calls `body` with the codes.
    public func withSamples<R>(_ body: (UnsafeBufferPointer<UInt16>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: samples, count: width * height))
    }
}

/// The pixel-buffer attachment key of a frame's `RawMosaic` (Linux addition).
public let kOpenCaptureRawMosaicKey = "OpenCaptureRawMosaic"

extension RawMosaic {
    /// A copy of the codes as a Core Video Bayer pixel buffer of the mosaic's pattern
    /// ('rgg4' for RGGB): one 16-bit word per photosite, rows `bytesPerRow` apart. What a
    /// raw photo's `pixelBuffer` is; nil for a pattern Core Video has no format for.
    package func pixelBuffer() -> CVPixelBuffer? {
        guard let format = PixelFormat(bayerPattern: pattern) else { return nil }
        let buffer = CVBuffer(format: format, width: width, height: height)
        let stride = buffer.bytesPerRow(0), base = buffer.planeAddress(0)
        for row in 0..<height {
            (base + row * stride).copyMemory(from: samples + row * width, byteCount: width * MemoryLayout<UInt16>.size)
        }
        return buffer
    }
}
