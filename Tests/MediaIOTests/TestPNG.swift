import Foundation

/// Writes PNG files byte by byte for decoder tests, so each chunk is exactly what the test
/// says: the image data is deflate "stored" blocks (no compression), with real CRCs.
struct TestPNG {
    var width: Int
    var height: Int
    /// 8 or 16.
    var bitDepth = 8
    /// 2 RGB, 6 RGBA, 0 grey.
    var colorType = 2
    /// Chunks between IHDR and IDAT, as (type, payload).
    var extraChunks: [(String, [UInt8])] = []
    /// The samples of one pixel (big-endian for 16 bits), repeated over the picture.
    var pixel: [UInt8]
    /// The samples at (x, y), when they vary; overrides `pixel`.
    var pixelAt: ((Int, Int) -> [UInt8])?
    /// Adam7 interlacing.
    var interlaced = false
    /// The header's size, when it should claim something else than `width`×`height`.
    var claimedSize: (width: Int, height: Int)?

    /// A gAMA chunk: `gamma` is the encoding exponent (1/2.2 for most files, 1 for linear).
    static func gamma(_ gamma: Double) -> (String, [UInt8]) {
        ("gAMA", bigEndian(UInt32((gamma * 100_000).rounded())))
    }

    /// An sRGB chunk (perceptual intent).
    static let sRGB: (String, [UInt8]) = ("sRGB", [0])

    var data: Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let size = claimedSize ?? (width, height)
        let header =
            Self.bigEndian(UInt32(size.width)) + Self.bigEndian(UInt32(size.height))
            + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        out += Self.chunk("IHDR", header)
        for (type, payload) in extraChunks { out += Self.chunk(type, payload) }
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * pixel.count))
        // Adam7's passes as (x start, y start, x step, y step); one pass covering all without.
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)  // filter: none
                for x in stride(from: x0, to: width, by: dx) { raw += pixelAt?(x, y) ?? pixel }
            }
        }
        out += Self.chunk("IDAT", Self.zlibStored(raw))
        out += Self.chunk("IEND", [])
        return Data(out)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return bigEndian(UInt32(payload.count)) + body + bigEndian(crc32(body))
    }

    /// A zlib stream of stored deflate blocks (at most 65535 bytes each).
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
