import CPNG
import CaptureCore
import Foundation

/// Decodes a PNG or JPEG file into 8-bit RGB samples, for pictures used as simulated scenes.
package enum PictureDecoder {
    /// A decoded picture: `width`×`height` pixels of 3 bytes (R, G, B), row-major.
    package struct Picture: Sendable {
        package var width: Int
        package var height: Int
        package var rgb: [UInt8]
    }

    /// Why a picture could not be read.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Decodes `data`, recognised by its signature (PNG or JPEG; anything else fails).
    /// PNG goes through libpng's simplified API (palette, grey, 16-bit and alpha are all
    /// converted to 8-bit RGB; alpha is dropped), JPEG through TurboJPEG.
    package static func decode(_ data: Data) throws -> Picture {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(data) }
        if data.starts(with: [0xFF, 0xD8]) { return try decodeJPEG(data) }
        throw Failure(description: "not a PNG or JPEG file")
    }

    private static func decodeJPEG(_ data: Data) throws -> Picture {
        let image: CVPixelBuffer
        do { image = try JPEGEncoder.decode(data) } catch { throw Failure(description: "bad JPEG: \(error)") }
        var rgb = [UInt8](repeating: 0, count: 3 * image.width * image.height)
        withExtendedLifetime(image) {
            for y in 0..<image.height {
                let row = image.planeAddress(0).assumingMemoryBound(to: UInt8.self) + y * image.bytesPerRow(0)
                for x in 0..<image.width {
                    // BGRA in memory.
                    let out = 3 * (y * image.width + x)
                    rgb[out] = row[4 * x + 2]
                    rgb[out + 1] = row[4 * x + 1]
                    rgb[out + 2] = row[4 * x]
                }
            }
        }
        return Picture(width: image.width, height: image.height, rgb: rgb)
    }

    private static func decodePNG(_ data: Data) throws -> Picture {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = data.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard begun != 0 else { throw Failure(description: "bad PNG: \(message(image))") }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= 1 << 26 else {
            throw Failure(description: "PNG of \(width)x\(height) is too large")
        }
        image.format = UInt32(PNG_FORMAT_RGB)
        var rgb = [UInt8](repeating: 0, count: 3 * width * height)
        let finished = rgb.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, nil, out.baseAddress, Int32(3 * width), nil)
        }
        guard finished != 0 else { throw Failure(description: "bad PNG: \(message(image))") }
        return Picture(width: width, height: height, rgb: rgb)
    }

    private static func message(_ image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
