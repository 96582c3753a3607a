/// Lays out a little-endian ('II') TIFF structure holding IFD0 and an Exif sub-IFD, the
/// payload of a JPEG's APP1 "Exif" segment.
///
/// Layout: the 8-byte header, IFD0 and the values too long to sit in its entries, then the
/// Exif IFD and its values. Offsets count from the header's first byte, entries are sorted
/// by tag as TIFF requires, and every value starts on an even offset. No IFD1 (thumbnail).
package enum ExifWriter {
    /// The TIFF bytes for the two directories. IFD0 gets an ExifIFDPointer entry when
    /// `exif` is not empty; any pointer already in `ifd0` is replaced.
    package static func tiff(ifd0: [ExifTag: ExifValue], exif: [ExifTag: ExifValue]) -> [UInt8] {
        var ifd0 = ifd0
        ifd0[.exifIFDPointer] = nil
        let headerSize = 8
        if !exif.isEmpty {
            // The pointer's own entry counts towards IFD0's size, so add a placeholder first.
            ifd0[.exifIFDPointer] = .long([0])
            ifd0[.exifIFDPointer] = .long([UInt32(headerSize + directorySize(ifd0))])
        }
        var out: [UInt8] = [UInt8(ascii: "I"), UInt8(ascii: "I"), 42, 0]
        out += ExifValue.littleEndian(UInt32(headerSize))
        appendDirectory(ifd0, to: &out)
        if !exif.isEmpty { appendDirectory(exif, to: &out) }
        return out
    }

    /// Bytes taken by a directory: entry count, 12-byte entries, next-IFD offset, and the
    /// out-of-line values (those over 4 bytes), each padded to an even length.
    private static func directorySize(_ entries: [ExifTag: ExifValue]) -> Int {
        entries.values.reduce(2 + 12 * entries.count + 4) { size, value in
            let length = value.littleEndianBytes.count
            return size + (length > 4 ? length + length % 2 : 0)
        }
    }

    /// Appends a directory at the end of `out`, whose length is the directory's TIFF offset.
    private static func appendDirectory(_ entries: [ExifTag: ExifValue], to out: inout [UInt8]) {
        let sorted = entries.sorted { $0.key.rawValue < $1.key.rawValue }
        let valuesOffset = out.count + 2 + 12 * sorted.count + 4
        var values: [UInt8] = []
        appendShort(UInt16(sorted.count), to: &out)
        for (tag, value) in sorted {
            let bytes = value.littleEndianBytes
            appendShort(tag.rawValue, to: &out)
            appendShort(value.typeCode, to: &out)
            out += ExifValue.littleEndian(UInt32(value.count))
            if bytes.count <= 4 {
                // Short values sit in the entry itself, left-aligned.
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                out += ExifValue.littleEndian(UInt32(valuesOffset + values.count))
                values += bytes
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        out += ExifValue.littleEndian(0)  // no next IFD
        out += values
    }

    private static func appendShort(_ value: UInt16, to out: inout [UInt8]) {
        out += [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)]
    }
}
