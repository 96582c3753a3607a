import CPNG
import CaptureCore
import Foundation

extension PictureDecoder {
    /// What the chunks before the image data say, read without libpng.
    struct PNGLayout {
        var size: Size
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool
        /// Bytes of compressed image data (all IDAT chunks).
        var compressedBytes: Int

        /// Samples per pixel of the stored colour type.
        var channels: Int {
            switch colorType {
            case 2: 3
            case 4: 2
            case 6: 4
            default: 1  // grey, palette
            }
        }

        /// Bytes of filtered image data the compressed data must inflate to (each row's
        /// filter byte and samples; an interlaced file has a little more).
        var filteredBytes: Int {
            size.height * (1 + (size.width * channels * bitDepth + 7) / 8)
        }

        init?(_ png: UnsafeBufferPointer<UInt8>) {
            func word(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
            guard png.count >= 33, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
                word(8) == 13, Array(png[12..<16]) == Array("IHDR".utf8)
            else { return nil }
            size = Size(width: word(16), height: word(20))
            bitDepth = Int(png[24])
            colorType = Int(png[25])
            interlaced = png[28] != 0
            compressedBytes = 0
            var offset = 8
            while offset + 12 <= png.count {
                let length = word(offset)
                let type = Array(png[(offset + 4)..<(offset + 8)])
                if type == Array("IDAT".utf8) { compressedBytes += min(length, png.count - offset - 8) }
                if type == Array("IEND".utf8) { break }
                guard length <= png.count else { break }
                offset += 12 + length
            }
        }
    }

    /// PNG: checks the header against the data, then reads rows with libpng (C shims that
    /// keep libpng's longjmp errors out of Swift) and averages them down to `limit` as they
    /// come. Interlaced files need the whole image at once, so they are read into one buffer
    /// of at most `interlacedBudget(limit)` bytes.
    static func decodePNG(_ png: UnsafeBufferPointer<UInt8>, limit: Size) throws -> Picture {
        guard let layout = PNGLayout(png) else { throw Failure(description: "bad PNG: no IHDR chunk") }
        try checkSourceSize(layout.size, kind: "PNG")
        // Deflate at its best turns 258 bytes into 2 bits, 1032:1.
        guard layout.compressedBytes >= layout.filteredBytes / 1032 else {
            throw Failure(
                description: "PNG header claims \(layout.size) but its \(layout.compressedBytes) bytes of image data cannot hold that "
                    + "(at least \(layout.filteredBytes / 1032) needed): truncated or corrupt")
        }
        var reader = oc_png_reader()
        defer { oc_png_close(&reader) }
        // Ancillary chunks (text, ICC profiles) of at most 8 MB each.
        guard oc_png_open(&reader, png.baseAddress, png.count, 8 << 20) != 0 else { throw failure(reader) }
        let curve = transfer(reader)
        var passes: Int32 = 1
        guard oc_png_start(&reader, &passes) != 0 else { throw failure(reader) }
        let rowBytes = png_get_rowbytes(reader.png, reader.info)
        let channels = Int(png_get_channels(reader.png, reader.info))
        let sixteen = png_get_bit_depth(reader.png, reader.info) == 16
        guard channels == 3 || channels == 4 else { throw Failure(description: "bad PNG: \(channels) channels after expansion") }
        let source = layout.size
        let size = outputSize(source, limit: limit)
        let converter = PNGRowConverter(width: source.width, channels: channels, sixteenBit: sixteen, curve: curve)

        if passes > 1 {
            let total = rowBytes * source.height
            guard total <= interlacedBudget(limit) else {
                throw Failure(description: "interlaced PNG of \(source) is too large to decode here; save it without interlacing")
            }
            let image = PageMemory.allocate(UInt8.self, count: total)
            defer { PageMemory.deallocate(image, count: total) }
            for _ in 0..<passes {
                for y in 0..<source.height {
                    guard oc_png_read_row(&reader, image + y * rowBytes) != 0 else { throw failure(reader) }
                }
            }
            return converter.picture(size: size, source: source) { y in UnsafePointer(image + y * rowBytes) }
        }
        let row = PageMemory.allocate(UInt8.self, count: rowBytes)
        defer { PageMemory.deallocate(row, count: rowBytes) }
        return try converter.picture(size: size, source: source) { _ in
            guard oc_png_read_row(&reader, row) != 0 else { throw failure(reader) }
            return UnsafePointer(row)
        }
    }

    /// The memory an interlaced picture may take while it is read: four bytes a pixel of
    /// the bound, and 64 MB at least.
    static func interlacedBudget(_ limit: Size) -> Int { max(64 << 20, 4 * limit.width * limit.height) }

    /// The curve the file's samples are encoded with.
    private static func transfer(_ reader: oc_png_reader) -> PNGRowConverter.Curve {
        if png_get_valid(reader.png, reader.info, PNG_INFO_sRGB) != 0 || png_get_valid(reader.png, reader.info, PNG_INFO_iCCP) != 0 {
            return .sRGB
        }
        var gamma: png_fixed_point = 0
        if png_get_gAMA_fixed(reader.png, reader.info, &gamma) != 0, gamma > 0 {
            // gAMA holds the encoding exponent ×100000: sample = linear^gamma.
            return .power(100_000 / Float(gamma))
        }
        // No colour chunk: sRGB, by convention (16-bit samples too; libpng's simplified API
        // took those as linear, which made them far too bright).
        return .sRGB
    }

    private static func failure(_ reader: oc_png_reader) -> Failure {
        var copy = reader.message
        let message = withUnsafeBytes(of: &copy) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Failure(description: "bad PNG: \(message.isEmpty ? "unreadable" : message)")
    }
}
