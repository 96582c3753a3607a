/// Lays out a little-endian ('II') TIFF structure holding IFD0, an Exif sub-IFD and a GPS
/// sub-IFD, the payload of a JPEG's APP1 "Exif" segment.
///
/// Layout: the 8-byte header, IFD0 and the values too long to sit in its entries, then the
/// Exif IFD and its values, the GPS IFD (when it has entries), then, with a thumbnail, IFD1
/// and the thumbnail's JPEG bytes.
/// Offsets count from the header's first byte, entries are sorted by tag as TIFF requires,
/// and every value starts on an even offset.
package enum ExifWriter {
    /// The TIFF bytes for the directories. IFD0 gets an ExifIFDPointer entry when `exif` is
    /// not empty; any pointer already in `ifd0` is replaced. `thumbnailJPEG`, when given,
    /// becomes IFD1: a JPEG thumbnail (Compression 6) at 72 dpi.
    package static func tiff(
        ifd0: [ExifTag: ExifValue], exif: [ExifTag: ExifValue], gps: [UInt16: ExifValue] = [:], thumbnailJPEG: [UInt8]? = nil
    ) -> [UInt8] {
        func numbered(_ entries: [ExifTag: ExifValue]) -> [UInt16: ExifValue] {
            Dictionary(uniqueKeysWithValues: entries.map { ($0.key.rawValue, $0.value) })
        }
        let ifd1Tag = ExifTag.jpegInterchangeFormat.rawValue
        return tiff(ifd0: numbered(ifd0), exif: numbered(exif), gps: gps, extra: thumbnailJPEG.map { jpeg in
            // IFD1 then the JPEG; its offset entry is filled in once the start is known.
            (
                [
                    ExifTag.compression.rawValue: .short([6]),
                    ExifTag.xResolution.rawValue: .rational([ExifRational(72, 1)]),
                    ExifTag.yResolution.rawValue: .rational([ExifRational(72, 1)]),
                    ExifTag.resolutionUnit.rawValue: .short([2]),
                    ifd1Tag: .long([0]),
                    ExifTag.jpegInterchangeFormatLength.rawValue: .long([UInt32(jpeg.count)]),
                ], jpeg, ifd1Tag
            )
        })
    }

    /// The TIFF bytes for directories of any tags (numbers), with the Exif IFD pointer
    /// managed as above. `extra`, when given, is a last directory linked from IFD0 and the
    /// bytes that follow it, whose offset goes into that directory's `offsetTag` entry.
    /// `finish` may then set entries of IFD0 that depend on where the file's directories
    /// end (a DNG's StripOffsets); it must not change any value's length.
    package static func tiff(
        ifd0: [UInt16: ExifValue], exif: [UInt16: ExifValue], gps: [UInt16: ExifValue] = [:],
        extra: ([UInt16: ExifValue], [UInt8], UInt16)? = nil, finish: (inout [UInt16: ExifValue], Int) -> Void = { _, _ in }
    ) -> [UInt8] {
        var ifd0 = ifd0
        let pointer = ExifTag.exifIFDPointer.rawValue, gpsPointer = ExifTag.gpsInfoIFDPointer.rawValue
        ifd0[pointer] = nil
        ifd0[gpsPointer] = nil
        let headerSize = 8
        // The pointers' own entries count towards IFD0's size, so add placeholders first.
        if !exif.isEmpty { ifd0[pointer] = .long([0]) }
        if !gps.isEmpty { ifd0[gpsPointer] = .long([0]) }
        let exifOffset = headerSize + directorySize(ifd0)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : directorySize(exif))
        if !exif.isEmpty { ifd0[pointer] = .long([UInt32(exifOffset)]) }
        if !gps.isEmpty { ifd0[gpsPointer] = .long([UInt32(gpsOffset)]) }
        let extraOffset = gpsOffset + (gps.isEmpty ? 0 : directorySize(gps))
        var last = extra?.0
        if let extra { last?[extra.2] = .long([UInt32(extraOffset + directorySize(extra.0))]) }
        finish(&ifd0, extraOffset + (last.map(directorySize) ?? 0) + (extra?.1.count ?? 0))
        var out: [UInt8] = [UInt8(ascii: "I"), UInt8(ascii: "I"), 42, 0]
        out += ExifValue.littleEndian(UInt32(headerSize))
        appendDirectory(ifd0, to: &out, next: extra == nil ? 0 : UInt32(extraOffset))
        if !exif.isEmpty { appendDirectory(exif, to: &out) }
        if !gps.isEmpty { appendDirectory(gps, to: &out) }
        if let last, let extra {
            appendDirectory(last, to: &out)
            out += extra.1
        }
        return out
    }

    /// Bytes taken by a directory: entry count, 12-byte entries, next-IFD offset, and the
    /// out-of-line values (those over 4 bytes), each padded to an even length.
    private static func directorySize(_ entries: [UInt16: ExifValue]) -> Int {
        entries.values.reduce(2 + 12 * entries.count + 4) { size, value in
            let length = value.littleEndianBytes.count
            return size + (length > 4 ? length + length % 2 : 0)
        }
    }

    /// Appends a directory at the end of `out`, whose length is the directory's TIFF offset.
    private static func appendDirectory(_ entries: [UInt16: ExifValue], to out: inout [UInt8], next: UInt32 = 0) {
        let sorted = entries.sorted { $0.key < $1.key }
        let valuesOffset = out.count + 2 + 12 * sorted.count + 4
        var values: [UInt8] = []
        appendShort(UInt16(sorted.count), to: &out)
        for (tag, value) in sorted {
            let bytes = value.littleEndianBytes
            appendShort(tag, to: &out)
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
        out += ExifValue.littleEndian(next)  // 0: no next IFD
        out += values
    }

    private static func appendShort(_ value: UInt16, to out: inout [UInt8]) {
        out += [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)]
    }
}
