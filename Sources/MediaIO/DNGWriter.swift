import Foundation

/// Writes a raw Bayer mosaic as a DNG file (Adobe DNG 1.4): one little-endian TIFF IFD
/// holding the mosaic uncompressed, 16 bits a sample, with the tags a raw developer needs
/// (CFA layout, black and white levels, two colour matrices with their calibration
/// illuminants, the as-shot neutral), and an Exif IFD with the shot's exposure.
///
/// Layout: the 8-byte header, IFD0 and its values, the Exif IFD and its values, then the
/// samples in one strip. Offsets count from the header's first byte.
package enum DNGWriter {
    /// What a DNG needs besides the samples.
    package struct Description: Sendable {
        package var width: Int
        package var height: Int
        /// The colour filter layout from the top-left photosite, "RGGB" and its three turns.
        package var pattern: String
        package var blackLevel: Int
        package var whiteLevel: Int
        /// XYZ → camera-native matrices, row-major, under `illuminant1` and `illuminant2`.
        package var colorMatrix1: [Double]
        package var colorMatrix2: [Double]
        /// EXIF LightSource codes of the calibration illuminants (17 Standard A, 21 D65).
        package var illuminant1: UInt16
        package var illuminant2: UInt16
        /// The camera-native RGB of the scene's white (largest channel 1).
        package var asShotNeutral: SIMD3<Double>
        /// Make, model, orientation, date and exposure.
        package var exif: ExifMetadata

        package init(
            width: Int, height: Int, pattern: String, blackLevel: Int, whiteLevel: Int, colorMatrix1: [Double],
            colorMatrix2: [Double], illuminant1: UInt16, illuminant2: UInt16, asShotNeutral: SIMD3<Double>, exif: ExifMetadata
        ) {
            self.width = width
            self.height = height
            self.pattern = pattern
            self.blackLevel = blackLevel
            self.whiteLevel = whiteLevel
            self.colorMatrix1 = colorMatrix1
            self.colorMatrix2 = colorMatrix2
            self.illuminant1 = illuminant1
            self.illuminant2 = illuminant2
            self.asShotNeutral = asShotNeutral
            self.exif = exif
        }
    }

    /// TIFF and DNG tag numbers used here beyond `ExifTag`'s.
    private enum Tag {
        static let newSubfileType: UInt16 = 0x00FE
        static let imageWidth: UInt16 = 0x0100
        static let imageLength: UInt16 = 0x0101
        static let bitsPerSample: UInt16 = 0x0102
        static let compression: UInt16 = 0x0103
        static let photometricInterpretation: UInt16 = 0x0106
        static let stripOffsets: UInt16 = 0x0111
        static let samplesPerPixel: UInt16 = 0x0115
        static let rowsPerStrip: UInt16 = 0x0116
        static let stripByteCounts: UInt16 = 0x0117
        static let planarConfiguration: UInt16 = 0x011C
        static let cfaRepeatPatternDim: UInt16 = 0x828D
        static let cfaPattern: UInt16 = 0x828E
        static let dngVersion: UInt16 = 0xC612
        static let dngBackwardVersion: UInt16 = 0xC613
        static let uniqueCameraModel: UInt16 = 0xC614
        static let cfaPlaneColor: UInt16 = 0xC616
        static let cfaLayout: UInt16 = 0xC617
        static let blackLevelRepeatDim: UInt16 = 0xC619
        static let blackLevel: UInt16 = 0xC61A
        static let whiteLevel: UInt16 = 0xC61D
        static let colorMatrix1: UInt16 = 0xC621
        static let colorMatrix2: UInt16 = 0xC622
        static let asShotNeutral: UInt16 = 0xC628
        static let calibrationIlluminant1: UInt16 = 0xC65A
        static let calibrationIlluminant2: UInt16 = 0xC65B
    }

    /// The DNG bytes of `samples` (`width`×`height` codes, row-major).
    package static func dng(_ samples: UnsafeBufferPointer<UInt16>, _ description: Description) throws -> Data {
        let d = description
        guard d.width > 0, d.height > 0, samples.count >= d.width * d.height else { throw DNGError.badMosaic }
        guard let cfa = cfaCodes(d.pattern) else { throw DNGError.unsupportedPattern(d.pattern) }
        let directories = d.exif.directories
        var ifd0: [UInt16: ExifValue] = [:]
        for (tag, value) in directories.ifd0 where tag != .yCbCrPositioning { ifd0[tag.rawValue] = value }
        let stripBytes = d.width * d.height * 2
        ifd0[Tag.newSubfileType] = .long([0])
        ifd0[Tag.imageWidth] = .long([UInt32(d.width)])
        ifd0[Tag.imageLength] = .long([UInt32(d.height)])
        ifd0[Tag.bitsPerSample] = .short([16])
        ifd0[Tag.compression] = .short([1])
        ifd0[Tag.photometricInterpretation] = .short([32803])  // CFA
        ifd0[Tag.samplesPerPixel] = .short([1])
        ifd0[Tag.rowsPerStrip] = .long([UInt32(d.height)])
        ifd0[Tag.stripByteCounts] = .long([UInt32(stripBytes)])
        ifd0[Tag.stripOffsets] = .long([0])  // set once the directories' end is known
        ifd0[Tag.planarConfiguration] = .short([1])
        ifd0[Tag.cfaRepeatPatternDim] = .short([2, 2])
        ifd0[Tag.cfaPattern] = .byte(cfa)
        ifd0[Tag.dngVersion] = .byte([1, 4, 0, 0])
        ifd0[Tag.dngBackwardVersion] = .byte([1, 1, 0, 0])
        ifd0[Tag.uniqueCameraModel] = .ascii([d.exif.make, d.exif.model].compactMap { $0 }.joined(separator: " "))
        ifd0[Tag.cfaPlaneColor] = .byte([0, 1, 2])
        ifd0[Tag.cfaLayout] = .short([1])  // rectangular
        ifd0[Tag.blackLevelRepeatDim] = .short([1, 1])
        ifd0[Tag.blackLevel] = .long([UInt32(max(d.blackLevel, 0))])
        ifd0[Tag.whiteLevel] = .long([UInt32(max(d.whiteLevel, 1))])
        ifd0[Tag.colorMatrix1] = .signedRational(d.colorMatrix1.map(signedRational))
        ifd0[Tag.colorMatrix2] = .signedRational(d.colorMatrix2.map(signedRational))
        ifd0[Tag.calibrationIlluminant1] = .short([d.illuminant1])
        ifd0[Tag.calibrationIlluminant2] = .short([d.illuminant2])
        ifd0[Tag.asShotNeutral] = .rational([d.asShotNeutral.x, d.asShotNeutral.y, d.asShotNeutral.z].map { ExifRational(approximating: $0) })
        var exif: [UInt16: ExifValue] = [:]
        for (tag, value) in directories.exif where tag != .componentsConfiguration && tag != .pixelXDimension && tag != .pixelYDimension {
            exif[tag.rawValue] = value
        }
        let tiff = ExifWriter.tiff(ifd0: ifd0, exif: exif) { ifd0, end in
            ifd0[Tag.stripOffsets] = .long([UInt32(end)])
        }
        guard tiff.count + stripBytes <= Int(UInt32.max) else { throw DNGError.tooLarge }
        return PageData.make(count: tiff.count + stripBytes) { out in
            tiff.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            // TIFF 'II' is little-endian, as the samples are in memory on every Swift target here.
            let body = (out + tiff.count).bindMemory(to: UInt16.self, capacity: d.width * d.height)
            for index in 0..<d.width * d.height { body[index] = samples[index].littleEndian }
        }
    }

    /// CFAPattern's colour codes (0 red, 1 green, 2 blue) of a 2×2 layout such as "RGGB".
    static func cfaCodes(_ pattern: String) -> [UInt8]? {
        let codes = pattern.uppercased().map { letter -> UInt8? in
            switch letter {
            case "R": 0
            case "G": 1
            case "B": 2
            default: nil
            }
        }
        guard codes.count == 4, codes.allSatisfy({ $0 != nil }) else { return nil }
        return codes.compactMap { $0 }
    }

    /// A matrix entry as a signed fraction over 10000.
    private static func signedRational(_ value: Double) -> ExifSignedRational {
        ExifSignedRational(Int32((value * 10_000).rounded()), 10_000)
    }
}

/// Why a DNG could not be written.
package enum DNGError: Error, Sendable, Equatable, CustomStringConvertible {
    case badMosaic
    case unsupportedPattern(String)
    case tooLarge

    package var description: String {
        switch self {
        case .badMosaic: "DNG: the mosaic is empty or shorter than its size"
        case .unsupportedPattern(let pattern): "DNG: unsupported colour filter pattern \(pattern)"
        case .tooLarge: "DNG: the mosaic does not fit a TIFF file"
        }
    }
}
