/// The value of one TIFF/EXIF directory entry, in the field types this library uses.
///
/// SHORT and LONG both read as integers through `integers`, because writers are free to
/// pick either for tags such as PixelXDimension.
package enum ExifValue: Sendable, Hashable {
    /// Type 1 (BYTE) or 7 (UNDEFINED): raw bytes, such as ExifVersion "0232".
    case bytes([UInt8])
    /// Type 2: a NUL-terminated 7-bit string.
    case ascii(String)
    /// Type 3: 16-bit unsigned integers.
    case short([UInt16])
    /// Type 4: 32-bit unsigned integers.
    case long([UInt32])
    /// Type 5: unsigned fractions.
    case rational([ExifRational])
    /// Type 1 (BYTE): unsigned bytes, where a tag asks for BYTE rather than UNDEFINED
    /// (DNGVersion, CFAPattern).
    case byte([UInt8])
    /// Type 10: signed fractions (DNG's colour matrices).
    case signedRational([ExifSignedRational])

    /// The TIFF field type written for this value (bytes are written as UNDEFINED).
    var typeCode: UInt16 {
        switch self {
        case .bytes: 7
        case .ascii: 2
        case .short: 3
        case .long: 4
        case .rational: 5
        case .byte: 1
        case .signedRational: 10
        }
    }

    /// The entry's count: values, or bytes including the terminating NUL for strings.
    var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .ascii(let string): asciiBytes(string).count
        case .short(let values): values.count
        case .long(let values): values.count
        case .rational(let values): values.count
        case .byte(let bytes): bytes.count
        case .signedRational(let values): values.count
        }
    }

    /// The value's bytes in little-endian order, as stored in an 'II' TIFF file.
    var littleEndianBytes: [UInt8] {
        switch self {
        case .bytes(let bytes): bytes
        case .ascii(let string): asciiBytes(string)
        case .short(let values): values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        case .long(let values): values.flatMap(Self.littleEndian)
        case .rational(let values): values.flatMap { Self.littleEndian($0.numerator) + Self.littleEndian($0.denominator) }
        case .byte(let bytes): bytes
        case .signedRational(let values):
            values.flatMap { Self.littleEndian(UInt32(bitPattern: $0.numerator)) + Self.littleEndian(UInt32(bitPattern: $0.denominator)) }
        }
    }

    /// The string of an ASCII value.
    package var string: String? {
        if case .ascii(let string) = self { return string }
        return nil
    }

    /// The integers of a SHORT or LONG value.
    package var integers: [Int]? {
        switch self {
        case .short(let values): values.map(Int.init)
        case .long(let values): values.map(Int.init)
        default: nil
        }
    }

    /// The fractions of a RATIONAL value.
    package var rationals: [ExifRational]? {
        if case .rational(let values) = self { return values }
        return nil
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// EXIF strings are 7-bit ASCII ending in NUL: other characters become "?" so the count
    /// stays honest, and an embedded NUL would cut the string short, so it goes too.
    private func asciiBytes(_ string: String) -> [UInt8] {
        string.unicodeScalars.compactMap { scalar -> UInt8? in
            if scalar.value == 0 { return nil }
            return scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "?")
        } + [0]
    }
}

/// A TIFF SRATIONAL: two signed 32-bit integers, numerator over denominator.
package struct ExifSignedRational: Sendable, Hashable {
    package var numerator: Int32
    package var denominator: Int32

    package init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }
}
