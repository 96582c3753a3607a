import CaptureCore
import Foundation

/// Decodes a PNG or JPEG file into 8-bit sRGB samples no larger than a size bound, for
/// pictures used as simulated scenes.
///
/// - Size: the picture comes out at most `limit` on each side (the largest frame or still
///   the camera makes; it is stretched over the frame anyway). JPEGs are decoded at a
///   reduced scale (libjpeg-turbo's m/8 factors, the smallest that still covers the bound)
///   and PNGs are averaged down row by row as they are read, so a big source never sits
///   in memory whole; both then shrink to the bound by averaging in linear light.
/// - Hostile files: a header that claims more pixels than the file's bytes can hold is
///   refused before anything is allocated (a Huffman-coded JPEG needs a bit per 8×8 block,
///   deflate compresses at most 1032:1), and so is a picture over `maximumSourcePixels`,
///   and a progressive JPEG over `maximumProgressiveCoefficientBytes`. A
///   truncated or corrupt JPEG fails (libjpeg-turbo's "Premature end of JPEG file" warning
///   is an error here, not grey rows), as does a PNG whose data ends early.
/// - Transfer: JPEGs are sRGB. PNG samples, 8- or 16-bit, are decoded by the file's own
///   curve: the sRGB curve for an sRGB chunk, for an ICC profile (which is not applied
///   otherwise) and, by convention, for a file with no colour chunk at all; a gAMA chunk's
///   power law otherwise. Primaries (cHRM) are taken as sRGB's.
/// - Transparency: a picture is printed on white paper. Where it is transparent the paper
///   shows, so alpha mixes the colour with white (the picture's own white, reflectance 1),
///   in linear light: ρ = α·c + (1 − α).
package enum PictureDecoder {
    /// A size in pixels.
    package struct Size: Sendable, Equatable, CustomStringConvertible {
        package var width: Int
        package var height: Int

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        package var description: String { "\(width)x\(height)" }
    }

    /// A decoded picture: `width`×`height` pixels of 3 bytes (R, G, B), sRGB-encoded,
    /// row-major, top row first.
    package struct Picture: Sendable {
        package var width: Int
        package var height: Int
        package var samples: PageBuffer

        /// The samples as an array (a copy).
        package var rgb: [UInt8] { samples.array }
    }

    /// Why a picture could not be read.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The most pixels a source picture may have (16384×16384): decoding time grows with
    /// the source, whatever the bound on the result.
    package static let maximumSourcePixels = 1 << 28

    /// The most coefficient memory a progressive JPEG may need (128 MiB: 44 megapixels of
    /// 4:2:0). libjpeg holds all of it whatever the output scale; baseline JPEGs are decoded
    /// a row of blocks at a time and scaled, so they are not bound by this.
    package static let maximumProgressiveCoefficientBytes = 128 << 20

    /// The default bound: the simulated cameras' sensor, 4032×3024.
    package static let defaultLimit = Size(width: 4032, height: 3024)

    /// Decodes `data`, recognised by its signature (PNG or JPEG; anything else fails), to
    /// at most `limit` on each side.
    package static func decode(_ data: Data, fitting limit: Size = defaultLimit) throws -> Picture {
        guard limit.width > 0, limit.height > 0 else { throw Failure(description: "no room for a picture in \(limit)") }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(bytes, limit: limit) }
            if bytes.starts(with: [0xFF, 0xD8]) { return try decodeJPEG(bytes, limit: limit) }
            throw Failure(description: "not a PNG or JPEG file")
        }
    }

    /// The size a `source` picture comes out at under `limit`: each side at most the bound's.
    static func outputSize(_ source: Size, limit: Size) -> Size {
        Size(width: min(source.width, limit.width), height: min(source.height, limit.height))
    }

    /// Refuses a picture whose header claims an empty or overlarge size.
    static func checkSourceSize(_ size: Size, kind: String) throws {
        guard size.width > 0, size.height > 0 else { throw Failure(description: "\(kind) header claims an empty \(size) picture") }
        // Each side first, so the product cannot overflow.
        guard size.width <= maximumSourcePixels, size.height <= maximumSourcePixels,
            size.width * size.height <= maximumSourcePixels
        else {
            throw Failure(description: "\(kind) of \(size) is too large (at most \(maximumSourcePixels >> 20) megapixels)")
        }
    }
}
