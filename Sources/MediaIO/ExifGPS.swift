import Foundation

/// Where and when a photo was taken, as EXIF's GPS sub-IFD stores it and Image I/O's
/// "{GPS}" dictionary names it (`kCGImagePropertyGPSDictionary`): what an app passes in
/// `AVCapturePhotoSettings.metadata` to geotag its photos.
///
/// Latitude and longitude are kept unsigned with their "N"/"S", "E"/"W" references, as
/// both EXIF and Image I/O keep them; altitude likewise with its reference (0 above sea
/// level, 1 below).
package struct ExifGPS: Sendable, Hashable {
    package var latitude: Double?
    package var latitudeRef: String?
    package var longitude: Double?
    package var longitudeRef: String?
    package var altitude: Double?
    package var altitudeRef: Int?
    /// UTC time of day, "HH:mm:ss" with optional fractional seconds.
    package var timeStamp: String?
    /// UTC date, "yyyy:MM:dd".
    package var dateStamp: String?
    package var speed: Double?
    package var speedRef: String?
    package var imgDirection: Double?
    package var imgDirectionRef: String?
    /// Horizontal positioning error in metres.
    package var hPositioningError: Double?

    package init() {}

    /// GPS tag numbers (EXIF 2.32, section 4.6.6).
    enum Tag {
        static let version: UInt16 = 0, latitudeRef: UInt16 = 1, latitude: UInt16 = 2, longitudeRef: UInt16 = 3
        static let longitude: UInt16 = 4, altitudeRef: UInt16 = 5, altitude: UInt16 = 6, timeStamp: UInt16 = 7
        static let speedRef: UInt16 = 12, speed: UInt16 = 13, imgDirectionRef: UInt16 = 16, imgDirection: UInt16 = 17
        static let dateStamp: UInt16 = 29, hPositioningError: UInt16 = 31
    }

    /// The Image I/O dictionary's key names.
    enum Key {
        static let latitude = "Latitude", latitudeRef = "LatitudeRef", longitude = "Longitude", longitudeRef = "LongitudeRef"
        static let altitude = "Altitude", altitudeRef = "AltitudeRef", timeStamp = "TimeStamp", dateStamp = "DateStamp"
        static let speed = "Speed", speedRef = "SpeedRef", imgDirection = "ImgDirection", imgDirectionRef = "ImgDirectionRef"
        static let hPositioningError = "HPositioningError", version = "GPSVersion"
    }

    /// The GPS sub-IFD's entries; empty when nothing is known.
    var directory: [UInt16: ExifValue] {
        var entries: [UInt16: ExifValue] = [:]
        func rational(_ value: Double?) -> ExifValue? { value.map { .rational([ExifRational(approximating: abs($0), maximumDenominator: 10_000)]) } }
        func sexagesimal(_ degrees: Double?) -> ExifValue? {
            guard let degrees else { return nil }
            let value = abs(degrees), whole = value.rounded(.down), minutes = ((value - whole) * 60).rounded(.down)
            let seconds = (value - whole - minutes / 60) * 3600
            return .rational([ExifRational(UInt32(whole), 1), ExifRational(UInt32(minutes), 1), ExifRational(UInt32((seconds * 10_000).rounded()), 10_000)])
        }
        entries[Tag.latitudeRef] = latitudeRef.map(ExifValue.ascii)
        entries[Tag.latitude] = sexagesimal(latitude)
        entries[Tag.longitudeRef] = longitudeRef.map(ExifValue.ascii)
        entries[Tag.longitude] = sexagesimal(longitude)
        entries[Tag.altitudeRef] = altitudeRef.map { .byte([UInt8(clamping: $0)]) }
        entries[Tag.altitude] = rational(altitude)
        if let timeStamp {
            let parts = timeStamp.split(separator: ":").compactMap { Double($0) }
            if parts.count == 3 {
                entries[Tag.timeStamp] = .rational([
                    ExifRational(UInt32(max(0, parts[0])), 1), ExifRational(UInt32(max(0, parts[1])), 1),
                    ExifRational(UInt32((max(0, parts[2]) * 100).rounded()), 100),
                ])
            }
        }
        entries[Tag.speedRef] = speedRef.map(ExifValue.ascii)
        entries[Tag.speed] = rational(speed)
        entries[Tag.imgDirectionRef] = imgDirectionRef.map(ExifValue.ascii)
        entries[Tag.imgDirection] = rational(imgDirection)
        entries[Tag.dateStamp] = dateStamp.map(ExifValue.ascii)
        entries[Tag.hPositioningError] = rational(hPositioningError)
        if !entries.isEmpty { entries[Tag.version] = .byte([2, 3, 0, 0]) }
        return entries
    }

    /// Reads a GPS sub-IFD; nil when it holds none of the fields above.
    init?(directory: [UInt16: ExifValue]) {
        func number(_ tag: UInt16) -> Double? { directory[tag]?.rationals?.first?.doubleValue }
        func degrees(_ tag: UInt16) -> Double? {
            guard let parts = directory[tag]?.rationals, parts.count == 3 else { return nil }
            return parts[0].doubleValue + parts[1].doubleValue / 60 + parts[2].doubleValue / 3600
        }
        latitudeRef = directory[Tag.latitudeRef]?.string
        latitude = degrees(Tag.latitude)
        longitudeRef = directory[Tag.longitudeRef]?.string
        longitude = degrees(Tag.longitude)
        if case .bytes(let bytes)? = directory[Tag.altitudeRef], let first = bytes.first { altitudeRef = Int(first) }
        altitude = number(Tag.altitude)
        if let parts = directory[Tag.timeStamp]?.rationals, parts.count == 3 {
            timeStamp = String(format: "%02d:%02d:%05.2f", Int(parts[0].doubleValue), Int(parts[1].doubleValue), parts[2].doubleValue)
        }
        speedRef = directory[Tag.speedRef]?.string
        speed = number(Tag.speed)
        imgDirectionRef = directory[Tag.imgDirectionRef]?.string
        imgDirection = number(Tag.imgDirection)
        dateStamp = directory[Tag.dateStamp]?.string
        hPositioningError = number(Tag.hPositioningError)
        if self == ExifGPS() { return nil }
    }

    /// The "{GPS}" dictionary, with Image I/O's names and value types.
    package var dictionary: [String: Any] {
        var values: [String: Any] = [:]
        values[Key.latitude] = latitude.map(abs)
        values[Key.latitudeRef] = latitudeRef
        values[Key.longitude] = longitude.map(abs)
        values[Key.longitudeRef] = longitudeRef
        values[Key.altitude] = altitude.map(abs)
        values[Key.altitudeRef] = altitudeRef
        values[Key.timeStamp] = timeStamp
        values[Key.dateStamp] = dateStamp
        values[Key.speed] = speed
        values[Key.speedRef] = speedRef
        values[Key.imgDirection] = imgDirection
        values[Key.imgDirectionRef] = imgDirectionRef
        values[Key.hPositioningError] = hPositioningError
        return values
    }

    /// Reads a "{GPS}" dictionary; nil when it holds none of the fields above. A negative
    /// latitude or longitude without its reference gets "S" or "W" (Core Location's signs).
    package init?(dictionary: [String: Any]) {
        func number(_ key: String) -> Double? {
            let value = dictionary[key]
            return (value as? Double) ?? (value as? Float).map(Double.init) ?? (value as? Int).map(Double.init) ?? (value as? NSNumber)?.doubleValue
        }
        latitude = number(Key.latitude)
        latitudeRef = dictionary[Key.latitudeRef] as? String ?? latitude.map { $0 < 0 ? "S" : "N" }
        longitude = number(Key.longitude)
        longitudeRef = dictionary[Key.longitudeRef] as? String ?? longitude.map { $0 < 0 ? "W" : "E" }
        altitude = number(Key.altitude)
        altitudeRef = number(Key.altitudeRef).map { Int($0) } ?? altitude.map { $0 < 0 ? 1 : 0 }
        timeStamp = dictionary[Key.timeStamp] as? String
        dateStamp = dictionary[Key.dateStamp] as? String
        speed = number(Key.speed)
        speedRef = dictionary[Key.speedRef] as? String
        imgDirection = number(Key.imgDirection)
        imgDirectionRef = dictionary[Key.imgDirectionRef] as? String
        hPositioningError = number(Key.hPositioningError)
        if self == ExifGPS() { return nil }
    }
}
