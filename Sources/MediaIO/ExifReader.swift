/// Reads the directories of a TIFF structure (an APP1 "Exif" payload): IFD0 and the Exif
/// sub-IFD, keeping the entries whose tags are in `ExifTag` and whose types `ExifValue` has.
///
/// Both byte orders are read, since files from other cameras may be big-endian ('MM').
/// The input is untrusted: every offset and count is checked against the data, and a
/// malformed entry or directory is skipped rather than trusted.
package struct ExifReader {
    /// IFD0's entries.
    package private(set) var ifd0: [ExifTag: ExifValue] = [:]
    /// The Exif sub-IFD's entries; empty when IFD0 has no valid pointer to it.
    package private(set) var exif: [ExifTag: ExifValue] = [:]
    /// The GPS sub-IFD's entries by tag number (its numbers overlap no `ExifTag`'s meaning).
    package private(set) var gps: [UInt16: ExifValue] = [:]

    private let bytes: [UInt8]
    private let littleEndian: Bool

    /// Parses `tiff`; `nil` when it does not start with a TIFF header.
    package init?(tiff: [UInt8]) {
        guard tiff.count >= 8 else { return nil }
        switch (tiff[0], tiff[1]) {
        case (UInt8(ascii: "I"), UInt8(ascii: "I")): littleEndian = true
        case (UInt8(ascii: "M"), UInt8(ascii: "M")): littleEndian = false
        default: return nil
        }
        bytes = tiff
        guard short(at: 2) == 42, let first = long(at: 4) else { return nil }
        ifd0 = directory(at: Int(first))
        if let pointer = ifd0[.exifIFDPointer]?.integers?.first, pointer != Int(first) {
            exif = directory(at: pointer)
        }
        if let pointer = ifd0[.gpsInfoIFDPointer]?.integers?.first, pointer != Int(first) {
            gps = numberedDirectory(at: pointer)
        }
    }

    private func directory(at offset: Int) -> [ExifTag: ExifValue] {
        var entries: [ExifTag: ExifValue] = [:]
        for (number, value) in numberedDirectory(at: offset) {
            if let tag = ExifTag(rawValue: number) { entries[tag] = value }
        }
        return entries
    }

    private func numberedDirectory(at offset: Int) -> [UInt16: ExifValue] {
        guard let count = short(at: offset) else { return [:] }
        var entries: [UInt16: ExifValue] = [:]
        for index in 0..<Int(count) {
            let entry = offset + 2 + 12 * index
            guard let tagNumber = short(at: entry), let type = short(at: entry + 2), let valueCount = long(at: entry + 4)
            else { break }  // the directory runs past the end of the data
            guard let value = value(type: type, count: Int(valueCount), entry: entry) else { continue }
            entries[tagNumber] = value
        }
        return entries
    }

    private func value(type: UInt16, count: Int, entry: Int) -> ExifValue? {
        let unitSize: Int
        switch type {
        case 1, 2, 7: unitSize = 1
        case 3: unitSize = 2
        case 4: unitSize = 4
        case 5: unitSize = 8
        default: return nil
        }
        let length = count * unitSize  // count < 2^32, so this cannot overflow
        var start = entry + 8
        if length > 4 {
            guard let offset = long(at: entry + 8) else { return nil }
            start = Int(offset)
        }
        guard length > 0, start >= 0, start + length <= bytes.count else { return nil }
        let range = start..<start + length
        switch type {
        case 2:
            let text = bytes[range].prefix { $0 != 0 }
            return .ascii(String(decoding: text, as: UTF8.self))
        case 3:
            return .short(stride(from: start, to: range.upperBound, by: 2).compactMap(short(at:)))
        case 4:
            return .long(stride(from: start, to: range.upperBound, by: 4).compactMap(long(at:)))
        case 5:
            return .rational(stride(from: start, to: range.upperBound, by: 8).compactMap { at in
                guard let numerator = long(at: at), let denominator = long(at: at + 4) else { return nil }
                return ExifRational(numerator, denominator)
            })
        default:
            return .bytes(Array(bytes[range]))
        }
    }

    private func short(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    private func long(at offset: Int) -> UInt32? {
        guard let first = short(at: offset), let second = short(at: offset + 2) else { return nil }
        return littleEndian ? UInt32(first) | UInt32(second) << 16 : UInt32(first) << 16 | UInt32(second)
    }
}
