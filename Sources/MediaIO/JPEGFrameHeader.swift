/// A JPEG file's frame header (SOFn): size, coding and components, read without decoding,
/// so a header that claims more than the file can hold is refused before any memory is
/// committed to it.
struct JPEGFrameHeader {
    var width: Int
    var height: Int
    /// Arithmetic coding (SOF9-11, SOF13-15); otherwise Huffman.
    var isArithmetic: Bool
    /// Progressive coding (SOF2, SOF6, SOF10, SOF14): libjpeg keeps every block's
    /// coefficients (`coefficientBytes`) until the last scan, whatever the output scale.
    var isProgressive: Bool
    /// Each component's horizontal and vertical sampling factors.
    var sampling: [(h: Int, v: Int)]

    /// The 8×8 blocks the image has, summed over components: each is at least one Huffman
    /// code (its DC difference) in the file, so a Huffman-coded file holds at least this
    /// many bits of entropy-coded data.
    var blockCount: Int {
        let hMax = sampling.map(\.h).max() ?? 1, vMax = sampling.map(\.v).max() ?? 1
        return sampling.reduce(0) { total, factors in
            let columns = (width * factors.h + hMax - 1) / hMax
            let rows = (height * factors.v + vMax - 1) / vMax
            return total + ((columns + 7) / 8) * ((rows + 7) / 8)
        }
    }

    /// The memory libjpeg holds for a progressive or multi-scan decode: 64 two-byte
    /// coefficients a block.
    var coefficientBytes: Int { blockCount * 128 }

    /// How many scans (SOS segments) the primary image of `jpeg` has. More than one makes
    /// libjpeg buffer the whole image's coefficients, as progressive coding does.
    ///
    /// The segments are walked by their lengths from SOI to the primary image's EOI, so a
    /// whole JPEG inside a segment (an EXIF thumbnail in APP1) or after the EOI (MPF's
    /// other images) is not counted. Entropy-coded data stuffs every 0xFF with a 0x00, so
    /// its end is the first 0xFF followed by a byte other than 0x00, 0xFF or RSTn. Bytes
    /// that are no marker between segments are passed over, as libjpeg passes them over.
    static func scanCount(_ jpeg: UnsafeBufferPointer<UInt8>) -> Int {
        let count = jpeg.count
        guard count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return 0 }
        var scans = 0
        var offset = 2
        while offset + 1 < count {
            let marker = jpeg[offset + 1]
            // Garbage, a fill byte or a stuffed zero: look on for the next marker.
            guard jpeg[offset] == 0xFF, marker != 0xFF, marker != 0x00 else {
                offset += 1
                continue
            }
            if marker == 0xD9 { break }  // the primary image ends
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            guard offset + 4 <= count else { break }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2 else { break }
            offset += 2 + length
            guard marker == 0xDA else { continue }
            scans += 1
            while offset + 1 < count {
                let next = jpeg[offset + 1]
                if jpeg[offset] == 0xFF, next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { break }
                offset += 1
            }
        }
        return scans
    }

    /// The first frame header of `jpeg`, or nil when the marker segments before the scan
    /// hold none (or are malformed).
    init?(_ jpeg: UnsafeBufferPointer<UInt8>) {
        let count = jpeg.count
        guard count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= count {
            guard jpeg[offset] == 0xFF else { return nil }
            let marker = jpeg[offset + 1]
            if marker == 0xFF {
                offset += 1  // fill byte
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image or scan: no frame header
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= count else { return nil }
            let frameMarkers: ClosedRange<UInt8> = 0xC0...0xCF
            if frameMarkers.contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let body = offset + 4
                guard length >= 8 else { return nil }
                let components = Int(jpeg[body + 5])
                guard components >= 1, length >= 8 + 3 * components else { return nil }
                height = Int(jpeg[body + 1]) << 8 | Int(jpeg[body + 2])
                width = Int(jpeg[body + 3]) << 8 | Int(jpeg[body + 4])
                isArithmetic = marker >= 0xC9
                isProgressive = marker & 0x03 == 0x02
                sampling = (0..<components).map { index in
                    let factors = jpeg[body + 6 + 3 * index + 1]
                    return (h: max(Int(factors >> 4), 1), v: max(Int(factors & 0x0F), 1))
                }
                return
            }
            offset += 2 + length
        }
        return nil
    }
}
