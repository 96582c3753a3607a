import Foundation
import Testing
@testable import MediaIO

@Suite("EXIF metadata")
struct ExifMetadataTests {
    /// Every field set, to values other than the defaults.
    static let full = ExifMetadata(
        make: "OpenCapture", model: "Simulated Front Camera", software: "OpenCapture 1.0",
        orientation: .leftMirrored, dateTimeOriginal: Date(timeIntervalSince1970: 1_700_000_000), timeZoneOffset: -(5 * 3600 + 1800),
        exposureTime: 1.0 / 30, fNumber: 2.2, isoSpeed: 640, focalLength: 2.71, focalLengthIn35mmFilm: 23,
        whiteBalance: .manual, flash: ExifFlash(fired: true, mode: .auto), exposureProgram: .shutterPriority,
        exposureMode: .manual, pixelWidth: 4032, pixelHeight: 3024, colorSpace: .uncalibrated)

    @Test("exposure, aperture and focal length become the fractions cameras write")
    func approximatesRationals() {
        #expect(ExifRational(approximating: 1.0 / 120) == ExifRational(1, 120))
        #expect(ExifRational(approximating: 0.008_333_333) == ExifRational(1, 120))
        #expect(ExifRational(approximating: 1.8) == ExifRational(9, 5))
        #expect(ExifRational(approximating: 4.2) == ExifRational(21, 5))
        #expect(ExifRational(approximating: 1.0 / 3) == ExifRational(1, 3))
        #expect(ExifRational(approximating: 30) == ExifRational(30, 1))
        #expect(ExifRational(approximating: 1.0 / 8000) == ExifRational(1, 8000))
        #expect(ExifRational(approximating: 0) == ExifRational(0, 1))
        #expect(ExifRational(approximating: -1) == ExifRational(0, 1))
        #expect(ExifRational(approximating: .nan) == ExifRational(0, 1))
        #expect(ExifRational(approximating: .pi) == ExifRational(355, 113))  // the first within 1e-7 relative
        #expect(ExifRational(3, 0).doubleValue == 0)
    }

    @Test("every field survives the TIFF writer and reader")
    func roundTripsEveryField() {
        #expect(ExifMetadata(tiff: Self.full.tiffBytes) == Self.full)
    }

    @Test("each value of each enumerated tag round-trips")
    func roundTripsEnumerations() {
        for orientation in ExifOrientation.allCases {
            #expect(ExifMetadata(tiff: ExifMetadata(orientation: orientation).tiffBytes)?.orientation == orientation)
        }
        for mode in ExifFlash.Mode.allCases {
            for fired in [false, true] {
                let flash = ExifFlash(fired: fired, mode: mode)
                let read = ExifMetadata(tiff: ExifMetadata(flash: flash).tiffBytes)?.flash
                #expect(read == flash && read?.fired == fired && read?.mode == mode)
            }
        }
        for program in ExifMetadata.ExposureProgram.allCases {
            #expect(ExifMetadata(tiff: ExifMetadata(exposureProgram: program).tiffBytes)?.exposureProgram == program)
        }
        for mode in ExifMetadata.ExposureMode.allCases {
            #expect(ExifMetadata(tiff: ExifMetadata(exposureMode: mode).tiffBytes)?.exposureMode == mode)
        }
        for balance in ExifMetadata.WhiteBalance.allCases {
            #expect(ExifMetadata(tiff: ExifMetadata(whiteBalance: balance).tiffBytes)?.whiteBalance == balance)
        }
    }

    @Test("absent fields stay absent")
    func keepsAbsentFieldsAbsent() {
        let bare = ExifMetadata(software: nil, colorSpace: nil)
        #expect(ExifMetadata(tiff: bare.tiffBytes) == bare)
    }

    @Test("flash bits follow EXIF 2.3: 16 is off, 25 is auto and fired, 32 is no flash unit")
    func encodesFlashBits() {
        #expect(ExifFlash(fired: false, mode: .off).rawValue == 16)
        #expect(ExifFlash(fired: true, mode: .auto).rawValue == 25)
        #expect(ExifFlash(fired: true, mode: .on).rawValue == 9)
        #expect(ExifFlash.noFlashFunction.rawValue == 32 && !ExifFlash.noFlashFunction.fired)
    }

    @Test("values beyond a SHORT clamp rather than wrap")
    func clampsShorts() {
        let read = ExifMetadata(tiff: ExifMetadata(isoSpeed: 100_000, focalLengthIn35mmFilm: -3).tiffBytes)
        #expect(read?.isoSpeed == 65535)
        #expect(read?.focalLengthIn35mmFilm == 0)
    }

    @Test("dates are local time with an offset tag; without an offset, this machine's zone")
    func writesLocalDates() {
        let instant = Date(timeIntervalSince1970: 1_715_954_589)  // 2024-05-17 14:03:09 UTC
        #expect(ExifDateTime.string(instant, offset: 0) == "2024:05:17 14:03:09")
        #expect(ExifDateTime.string(instant, offset: -(9 * 3600 + 1800)) == "2024:05:17 04:33:09")
        #expect(ExifDateTime.offsetString(-(9 * 3600 + 1800)) == "-09:30")
        #expect(ExifDateTime.offsetString(3600) == "+01:00")
        #expect(ExifDateTime.offset("+05:45") == 5 * 3600 + 45 * 60)
        #expect(ExifDateTime.offset("05:45") == nil)
        #expect(ExifDateTime.date("2024:05:17 04:33:09", offset: -(9 * 3600 + 1800)) == instant)
        #expect(ExifDateTime.date("    :  :     :  :  ", offset: 0) == nil)
        #expect(ExifDateTime.date("2024:02:30 00:00:00", offset: 0) == nil)
        let unzoned = ExifMetadata(tiff: ExifMetadata(dateTimeOriginal: instant).tiffBytes)
        #expect(unzoned?.dateTimeOriginal == instant)
        #expect(unzoned?.timeZoneOffset == TimeZone.current.secondsFromGMT(for: instant))
    }

    @Test("the dictionary form has Apple's shape and types")
    func buildsAppleDictionary() throws {
        var metadata = sampleExif
        metadata.pixelWidth = 640
        metadata.pixelHeight = 480
        let dictionary = metadata.dictionary
        #expect(dictionary["Orientation"] as? Int == 6)
        let exif = try #require(dictionary["{Exif}"] as? [String: Any])
        let tiff = try #require(dictionary["{TIFF}"] as? [String: Any])
        #expect(exif["ExposureTime"] as? Double == 1.0 / 120)
        #expect(exif["FNumber"] as? Double == 1.8)
        #expect(exif["ISOSpeedRatings"] as? [Int] == [100])
        #expect(exif["FocalLength"] as? Double == 4.2)
        #expect(exif["FocalLenIn35mmFilm"] as? Int == 26)
        #expect(exif["WhiteBalance"] as? Int == 0)
        #expect(exif["Flash"] as? Int == 16)
        #expect(exif["DateTimeOriginal"] as? String == "2024:05:17 16:03:09")
        #expect(exif["OffsetTimeOriginal"] as? String == "+02:00")
        #expect(exif["PixelXDimension"] as? Int == 640)
        #expect(exif["PixelYDimension"] as? Int == 480)
        #expect(exif["ColorSpace"] as? Int == 1)
        #expect(tiff["Make"] as? String == "OpenCapture")
        #expect(tiff["Model"] as? String == "Simulated Back Camera")
        #expect(tiff["Software"] as? String == "OpenCapture")
        #expect(tiff["Orientation"] as? Int == 6)
        #expect(ExifMetadata(software: nil).dictionary["{TIFF}"].flatMap { ($0 as? [String: Any])?["Software"] } == nil)
    }

    /// Where the stored image's first row and first column end up once displayed, per
    /// TIFF 6.0's definition of each Orientation value.
    @Test("orientation values put the first row and column where TIFF 6.0 says", arguments: ExifOrientation.allCases)
    func placesFirstRowAndColumn(orientation: ExifOrientation) {
        let expected: [ExifOrientation: (row: String, column: String)] = [
            .up: ("top", "left"), .upMirrored: ("top", "right"), .down: ("bottom", "right"), .downMirrored: ("bottom", "left"),
            .leftMirrored: ("left", "top"), .right: ("right", "top"), .rightMirrored: ("right", "bottom"), .left: ("left", "bottom"),
        ]
        let (width, height) = (3, 2)
        func display(_ point: (x: Int, y: Int)) -> (x: Int, y: Int, width: Int, height: Int) {
            var (x, y, w, h) = (point.x, point.y, width, height)
            for _ in 0..<orientation.displayRotation.rawValue / 90 {
                (x, y, w, h) = (h - 1 - y, x, h, w)  // a quarter turn clockwise
            }
            if orientation.isMirrored { x = w - 1 - x }
            return (x, y, w, h)
        }
        func side(_ points: [(x: Int, y: Int)]) -> String {
            let shown = points.map(display)
            if shown.allSatisfy({ $0.y == 0 }) { return "top" }
            if shown.allSatisfy({ $0.y == $0.height - 1 }) { return "bottom" }
            if shown.allSatisfy({ $0.x == 0 }) { return "left" }
            return shown.allSatisfy({ $0.x == $0.width - 1 }) ? "right" : "nowhere"
        }
        #expect(side((0..<width).map { ($0, 0) }) == expected[orientation]?.row)
        #expect(side((0..<height).map { (0, $0) }) == expected[orientation]?.column)
        #expect(ExifOrientation(displayRotation: orientation.displayRotation, mirrored: orientation.isMirrored) == orientation)
    }
}
