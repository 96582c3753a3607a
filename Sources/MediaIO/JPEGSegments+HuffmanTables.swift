import Foundation

extension JPEGSegments {
    /// `jpeg` made a standalone JPEG file: a Motion JPEG frame without Huffman tables (no DHT
    /// before its first SOS, as most UVC cameras send them) gets the standard tables of T.81
    /// Annex K.3, which its decoder was meant to assume, in one DHT segment before its SOF (or
    /// its SOS when no SOF precedes it), where JPEG writers put them. A frame that has tables,
    /// or an arithmetic-coded frame (which needs none), comes back byte for byte.
    package static func insertingStandardHuffmanTables(into jpeg: [UInt8]) throws -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw JPEGError.notJPEG }
        var offset = 2
        var frameHeader: Int?
        while offset + 4 <= jpeg.count {
            guard jpeg[offset] == 0xFF else { throw JPEGError.notJPEG }
            let marker = jpeg[offset + 1]
            switch marker {
            case 0xFF:
                offset += 1  // fill byte before a marker
                continue
            case 0x01, 0xD0...0xD7:
                offset += 2  // markers without a length
                continue
            case 0xC4:
                return jpeg  // the frame defines its own tables
            case 0xC9...0xCB, 0xCD...0xCF:
                return jpeg  // arithmetic coding uses no Huffman tables
            case 0xC0...0xC3, 0xC5...0xC7:
                if frameHeader == nil { frameHeader = offset }
            case 0xDA:
                let at = frameHeader ?? offset
                return Array(jpeg[..<at]) + JPEGStandardHuffmanTables.segment + Array(jpeg[at...])
            case 0xD9:
                throw JPEGError.notJPEG  // end of image before any scan
            default:
                break
            }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { throw JPEGError.notJPEG }
            offset += 2 + length
        }
        throw JPEGError.notJPEG  // no scan
    }
}
