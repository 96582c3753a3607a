import CaptureCore

/// A raw Bayer format a libcamera camera streams (its Raw role's), and how its bytes become
/// one 16-bit code per photosite. libcamera's Bayer PixelFormats carry V4L2's FourCCs: one
/// byte a sample for 8 bits, a little-endian 16-bit word for 10 to 16; with the MIPI CSI-2
/// packed modifier (a Raspberry Pi's raw), 10-bit samples come 4 in 5 bytes and 12-bit 2 in 3.
struct LibcameraRawFormat: Sendable, Equatable {
    var fourcc: UInt32
    var modifier: UInt64
    var width: Int
    var height: Int
    /// The colour filter layout from the top-left photosite: "RGGB", "GRBG", "BGGR" or "GBRG".
    var pattern: String
    var bits: Int
    /// MIPI CSI-2 packed (`modifier` is `csi2Packed`).
    var packed: Bool

    /// libcamera's MIPI_FORMAT_MOD_CSI2_PACKED: DRM's fourcc_mod_code(MIPI (0x0b), 1).
    static let csi2Packed: UInt64 = 0x0b << 56 | 1

    /// Layout and depth of each Bayer FourCC libcamera names (formats.yaml, drm_fourcc.h).
    private static let layouts: [UInt32: (pattern: String, bits: Int)] = {
        let table: [(String, String, Int)] = [
            ("RGGB", "RGGB", 8), ("GRBG", "GRBG", 8), ("GBRG", "GBRG", 8), ("BA81", "BGGR", 8),
            ("RG10", "RGGB", 10), ("BA10", "GRBG", 10), ("GB10", "GBRG", 10), ("BG10", "BGGR", 10),
            ("RG12", "RGGB", 12), ("BA12", "GRBG", 12), ("GB12", "GBRG", 12), ("BG12", "BGGR", 12),
            ("RG14", "RGGB", 14), ("BA14", "GRBG", 14), ("GB14", "GBRG", 14), ("BG14", "BGGR", 14),
            ("RGB6", "RGGB", 16), ("GR16", "GRBG", 16), ("GB16", "GBRG", 16), ("BYR2", "BGGR", 16),
        ]
        var layouts: [UInt32: (String, Int)] = [:]
        for (code, pattern, bits) in table { layouts[fourcc(code)] = (pattern, bits) }
        return layouts
    }()

    /// A FourCC from its four characters, first in the lowest byte.
    static func fourcc(_ code: String) -> UInt32 {
        code.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The Bayer format of a libcamera pixel format, nil for any other (a picture format, or
    /// a packing this does not read: CSI-2 packed 8, 14 or 16 bits, the Pi 5's compressed raw).
    init?(fourcc: UInt32, modifier: UInt64, width: Int, height: Int) {
        guard let layout = Self.layouts[fourcc], modifier == 0 || modifier == Self.csi2Packed else { return nil }
        let packed = modifier == Self.csi2Packed
        guard !packed || layout.bits == 10 || layout.bits == 12 else { return nil }
        (self.fourcc, self.modifier, self.width, self.height) = (fourcc, modifier, width, height)
        (pattern, bits, self.packed) = (layout.pattern, layout.bits, packed)
    }

    /// Core Video's Bayer type of this layout ('grb4' for GRBG): what
    /// `availableRawPhotoPixelFormatTypes` lists and a raw photo's pixel buffer is.
    var pixelFormat: UInt32 { PixelFormat(bayerPattern: pattern)?.rawValue ?? 0 }

    /// The largest code (2^bits − 1), the DNG's white level.
    var whiteLevel: Int { (1 << bits) - 1 }

    /// The bytes one row's samples take, before any padding to the stride: packed rows in
    /// whole groups (5 bytes per 4 samples, 3 per 2), as the unpacking reads them.
    var rowBytes: Int {
        if packed { return bits == 10 ? (width + 3) / 4 * 5 : (width + 1) / 2 * 3 }
        return bits == 8 ? width : width * 2
    }

    /// Unpacks a frame (`bytes` long, rows `stride` apart) into `mosaic`'s codes; false when
    /// the frame is too short for this format.
    func unpack(_ data: UnsafePointer<UInt8>, bytes: Int, stride: Int, into mosaic: RawMosaic) -> Bool {
        guard mosaic.width == width, mosaic.height == height, stride >= rowBytes, height > 0,
            bytes >= stride * (height - 1) + rowBytes
        else { return false }
        for row in 0..<height {
            let source = data + row * stride, target = mosaic.samples + row * width
            if !packed && bits == 8 {
                for x in 0..<width { target[x] = UInt16(source[x]) }
            } else if !packed {
                for x in 0..<width { target[x] = UInt16(source[2 * x]) | UInt16(source[2 * x + 1]) << 8 }
            } else if bits == 10 {
                // Four samples' high 8 bits, then one byte of their low 2 bits, first sample lowest.
                for x in 0..<width {
                    let group = source + (x / 4) * 5, lane = x % 4
                    target[x] = UInt16(group[lane]) << 2 | UInt16(group[4] >> (2 * UInt8(lane)) & 0x3)
                }
            } else {
                // Two samples' high 8 bits, then one byte of their low 4 bits, first sample lowest.
                for x in 0..<width {
                    let group = source + (x / 2) * 3, lane = x % 2
                    target[x] = UInt16(group[lane]) << 4 | UInt16(group[2] >> (4 * UInt8(lane)) & 0xF)
                }
            }
        }
        return true
    }
}
