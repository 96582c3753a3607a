import CaptureCore

/// Multi-frame noise reduction for stills: sums several renders of one still, each with
/// its own sensor noise, and writes back their rounded mean.
///
/// The frames are a burst taken at the still's instant with the still's exposure, so
/// they line up exactly (a steady camera needs no registration; a shaking one is not
/// re-aligned). Independent noise falls by √N for N frames; the 8-bit outputs are summed
/// exactly in 32 bits, so rounding adds at most half a code. 10-bit formats are not fused.
struct StillFusion {
    /// The frame key of burst frame `index` (≥ 1) of the still keyed `noiseFrame`: still keys
    /// are −1, −2, ... so these, 2³² apart, never meet another still's or a video frame's.
    static func noiseFrame(_ noiseFrame: Int64, burstIndex index: Int) -> Int64 {
        noiseFrame - Int64(index) << 32
    }

    /// Whether buffers of `format` can be fused (8-bit samples).
    static func canFuse(_ format: PixelFormat) -> Bool { !format.isTenBit }

    private var sums: [[UInt32]]
    private(set) var count = 0

    /// Sums for buffers shaped like `buffer` (every plane, the packed one of BGRA too).
    init(like buffer: CVBuffer) {
        sums = buffer.planes.map { [UInt32](repeating: 0, count: $0.height * $0.bytesPerRow) }
    }

    /// Adds one frame.
    mutating func add(_ buffer: CVBuffer) {
        for (index, plane) in buffer.planes.enumerated() {
            let bytes = UnsafeRawPointer(buffer.planeAddress(index)).assumingMemoryBound(to: UInt8.self)
            sums[index].withUnsafeMutableBufferPointer { sum in
                for offset in 0..<plane.height * plane.bytesPerRow { sum[offset] &+= UInt32(bytes[offset]) }
            }
        }
        count += 1
    }

    /// Writes the mean of the frames added into `buffer`.
    func write(into buffer: CVBuffer) {
        guard count > 0 else { return }
        let n = UInt32(count)
        for (index, plane) in buffer.planes.enumerated() {
            let bytes = buffer.planeAddress(index).assumingMemoryBound(to: UInt8.self)
            sums[index].withUnsafeBufferPointer { sum in
                for offset in 0..<plane.height * plane.bytesPerRow { bytes[offset] = UInt8((sum[offset] + n / 2) / n) }
            }
        }
    }
}
