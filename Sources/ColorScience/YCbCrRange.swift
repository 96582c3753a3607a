/// How Y'CbCr values map to integer codes.
///
/// Video ("narrow", studio) range puts 8-bit Y' on 16 ... 235 and Cb, Cr on 16 ... 240 (BT.601,
/// BT.709); full range (JFIF, H.273 full-range flag) uses 0 ... 255 for Y' and centres
/// chroma on 128. Core Video's '420v' is video range, '420f' full range.
public enum YCbCrRange: Sendable, Hashable, CaseIterable {
    case video
    case full

    /// Code per unit of Y' at `bitDepth` bits: 219·2^(n−8) video, 2^n − 1 full.
    public func lumaScale(bitDepth: Int = 8) -> Double {
        switch self {
        case .video: 219 * Double(1 << (bitDepth - 8))
        case .full: Double((1 << bitDepth) - 1)
        }
    }

    /// The code of Y' = 0: 16·2^(n−8) video, 0 full.
    public func lumaOffset(bitDepth: Int = 8) -> Double {
        switch self {
        case .video: 16 * Double(1 << (bitDepth - 8))
        case .full: 0
        }
    }

    /// Code per unit of Cb or Cr: 224·2^(n−8) video, 2^n − 1 full.
    public func chromaScale(bitDepth: Int = 8) -> Double {
        switch self {
        case .video: 224 * Double(1 << (bitDepth - 8))
        case .full: Double((1 << bitDepth) - 1)
        }
    }

    /// The code of zero chroma, 2^(n−1) in both ranges.
    public func chromaOffset(bitDepth: Int = 8) -> Double {
        Double(1 << (bitDepth - 1))
    }

    /// Y' (0 ... 1) → integer code, rounded and clipped to the code range.
    public func lumaCode(_ luma: Double, bitDepth: Int = 8) -> Int {
        clip((luma * lumaScale(bitDepth: bitDepth) + lumaOffset(bitDepth: bitDepth)).rounded(), bitDepth)
    }

    /// Cb or Cr (−0.5 ... 0.5) → integer code, rounded and clipped to the code range.
    public func chromaCode(_ chroma: Double, bitDepth: Int = 8) -> Int {
        clip((chroma * chromaScale(bitDepth: bitDepth) + chromaOffset(bitDepth: bitDepth)).rounded(), bitDepth)
    }

    /// Integer code → Y'.
    public func luma(fromCode code: Int, bitDepth: Int = 8) -> Double {
        (Double(code) - lumaOffset(bitDepth: bitDepth)) / lumaScale(bitDepth: bitDepth)
    }

    /// Integer code → Cb or Cr.
    public func chroma(fromCode code: Int, bitDepth: Int = 8) -> Double {
        (Double(code) - chromaOffset(bitDepth: bitDepth)) / chromaScale(bitDepth: bitDepth)
    }

    private func clip(_ value: Double, _ bitDepth: Int) -> Int {
        Int(min(max(value, 0), Double((1 << bitDepth) - 1)))
    }
}
