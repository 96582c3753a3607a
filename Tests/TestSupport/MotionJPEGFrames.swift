/// JPEG files turned into Motion JPEG frames as most UVC cameras send them, for tests.
package enum MotionJPEGFrames {
    /// `jpeg` without its DHT (Huffman table) segments: its decoder must assume the standard
    /// tables of T.81 Annex K.3. Walks the marker segments up to SOS; the scan stays as it is.
    package static func strippingHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let end = offset + 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
            if jpeg[offset + 1] != 0xC4 { result += jpeg[offset..<end] }
            offset = end
        }
        return result + jpeg[offset...]
    }

    /// Offset of the first segment with `marker` (0xDA for SOS, 0xC4 for DHT) before the scan,
    /// walking from SOI so bytes inside other segments never count; `nil` when there is none.
    package static func offset(of marker: UInt8, in jpeg: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if jpeg[offset + 1] == marker { return offset }
            if jpeg[offset + 1] == 0xDA { return nil }
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return nil
    }
}
