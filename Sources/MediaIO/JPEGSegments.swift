import Foundation

/// Finds and places marker segments in JPEG files: the APP1 "Exif" segment in particular.
///
/// A JPEG file is SOI (FF D8), then marker segments (FF, a marker byte, a big-endian length
/// that counts itself, the payload), then SOS and the entropy-coded image. Metadata lives
/// before SOS, so the scan stops there.
package enum JPEGSegments {
    /// The header that opens an APP1 segment's payload when it carries EXIF.
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The largest TIFF block one APP1 segment holds: 65535 less the length field and header.
    static let maximumTIFFSize = 0xFFFF - 2 - 6

    /// `jpeg` with an APP1 "Exif" segment holding `tiff` placed right after SOI, as EXIF
    /// requires. A JFIF APP0 segment directly after SOI is dropped: JFIF also demands the
    /// first place, and cameras write EXIF files without it.
    package static func inserting(exifTIFF tiff: [UInt8], into jpeg: UnsafeRawBufferPointer) throws -> Data {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw JPEGError.notJPEG }
        guard tiff.count <= maximumTIFFSize else { throw JPEGError.exifTooLarge(bytes: tiff.count) }
        var rest = 2
        if jpeg.count >= 11, jpeg[2] == 0xFF, jpeg[3] == 0xE0, Array(jpeg[6..<11]) == Array("JFIF".utf8) + [0] {
            rest = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
            guard rest <= jpeg.count else { throw JPEGError.notJPEG }
        }
        let length = 2 + exifHeader.count + tiff.count
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifHeader + tiff
        let tail = UnsafeRawBufferPointer(rebasing: jpeg[rest...])
        return PageData.make(count: head.count + tail.count) { out in
            head.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            if let start = tail.baseAddress { (out + head.count).copyMemory(from: start, byteCount: tail.count) }
        }
    }

    /// `jpeg` with its EXIF replaced by `tiff`: an APP1 "Exif" segment right after SOI (as
    /// OpenCapture and cameras write it) is dropped, then `inserting(exifTIFF:into:)` places
    /// the new one.
    package static func replacingExif(tiff: [UInt8], in jpeg: Data) throws -> Data {
        try jpeg.withUnsafeBytes { bytes -> Data in
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw JPEGError.notJPEG }
            var skip = 0
            if bytes.count >= 10, bytes[2] == 0xFF, bytes[3] == 0xE1, Array(bytes[6..<12]) == exifHeader {
                skip = 2 + (Int(bytes[4]) << 8 | Int(bytes[5]))
                guard 2 + skip <= bytes.count else { throw JPEGError.notJPEG }
            }
            guard skip > 0 else { return try inserting(exifTIFF: tiff, into: bytes) }
            // SOI followed by what came after the old segment.
            var rest = Data([0xFF, 0xD8])
            rest.append(contentsOf: bytes[(2 + skip)...])
            return try rest.withUnsafeBytes { try inserting(exifTIFF: tiff, into: $0) }
        }
    }

    /// The TIFF block of the first APP1 "Exif" segment; `nil` when there is none or the
    /// file is malformed before it.
    package static func exifPayload(in jpeg: Data) -> [UInt8]? {
        let start = jpeg.startIndex
        let count = jpeg.count
        func byte(_ offset: Int) -> UInt8 { jpeg[start + offset] }
        guard count >= 4, byte(0) == 0xFF, byte(1) == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= count {
            guard byte(offset) == 0xFF else { return nil }
            let marker = byte(offset + 1)
            switch marker {
            case 0xFF:
                offset += 1  // fill byte before a marker
                continue
            case 0xD9, 0xDA:
                return nil  // end of image, or start of scan: no metadata after this
            case 0x01, 0xD0...0xD7:
                offset += 2  // markers without a length
                continue
            default:
                break
            }
            let length = Int(byte(offset + 2)) << 8 | Int(byte(offset + 3))
            let end = offset + 2 + length
            guard length >= 2, end <= count else { return nil }
            let payload = start + offset + 4..<start + end
            if marker == 0xE1, jpeg[payload].starts(with: exifHeader) {
                return Array(jpeg[payload.dropFirst(exifHeader.count)])
            }
            offset = end
        }
        return nil
    }
}
