/// The EXIF Flash tag (0x9209): whether the flash fired and how it was set, as bit fields.
///
/// Bit 0 is "fired", bits 1-2 the strobe return, bits 3-4 the mode, bit 5 "no flash
/// function" and bit 6 red-eye reduction (EXIF 2.3, section 4.6.5). iPhone photos taken
/// with the flash off carry 16 ("Off, Did not fire"); a camera with no flash carries 32.
package struct ExifFlash: Sendable, Hashable, RawRepresentable {
    package var rawValue: UInt16

    /// How the flash was set to behave.
    package enum Mode: UInt16, Sendable, CaseIterable {
        case unknown = 0
        /// Forced on ("On" in exiftool, compulsory firing).
        case on = 1
        /// Forced off ("Off", compulsory suppression).
        case off = 2
        /// Fires when the scene is dark.
        case auto = 3
    }

    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A flash set to `mode` that did or did not fire.
    package init(fired: Bool, mode: Mode) {
        rawValue = (fired ? 1 : 0) | mode.rawValue << 3
    }

    /// No flash information: 0, "No Flash".
    package static let noFlash = ExifFlash(rawValue: 0)
    /// The camera has no flash unit: 32, "No flash function".
    package static let noFlashFunction = ExifFlash(rawValue: 0x20)

    /// Whether the flash fired.
    package var fired: Bool { rawValue & 1 != 0 }

    /// The flash mode from bits 3-4.
    package var mode: Mode { Mode(rawValue: rawValue >> 3 & 0b11) ?? .unknown }
}
