import Foundation

/// EXIF's date format: local time as "YYYY:MM:DD HH:MM:SS", with the offset from UTC in
/// a separate tag as "+HH:MM" (OffsetTime, EXIF 2.31).
///
/// Built on `Calendar` rather than `DateFormatter`, which is neither `Sendable` nor cheap.
package enum ExifDateTime {
    /// `date` as local time at `offset` seconds east of UTC, to the whole second.
    package static func string(_ date: Date, offset: Int) -> String {
        let parts = calendar(offset).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return "\(digits(parts.year, 4)):\(digits(parts.month, 2)):\(digits(parts.day, 2)) "
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2))"
    }

    /// An offset from UTC as "+HH:MM" or "-HH:MM".
    package static func offsetString(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + digits(minutes / 60, 2) + ":" + digits(minutes % 60, 2)
    }

    /// Parses "YYYY:MM:DD HH:MM:SS" as local time at `offset` seconds east of UTC.
    /// `nil` for blank or malformed strings (cameras write "    :  :     :  :  " when unknown).
    package static func date(_ string: String, offset: Int) -> Date? {
        let fields = string.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0) }
        guard fields.count == 6, let year = fields[0], let month = fields[1], let day = fields[2],
            let hour = fields[3], let minute = fields[4], let second = fields[5]
        else { return nil }
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard parts.isValidDate(in: calendar(offset)) else { return nil }
        return calendar(offset).date(from: parts)
    }

    /// Parses "+HH:MM" or "-HH:MM" into seconds east of UTC.
    package static func offset(_ string: String) -> Int? {
        guard let sign = string.first, sign == "+" || sign == "-" else { return nil }
        let fields = string.dropFirst().split(separator: ":").map { Int($0) }
        guard fields.count == 2, let hours = fields[0], let minutes = fields[1], hours <= 18, minutes < 60 else { return nil }
        let seconds = (hours * 60 + minutes) * 60
        return sign == "-" ? -seconds : seconds
    }

    private static func calendar(_ offset: Int) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
        return calendar
    }

    private static func digits(_ value: Int?, _ width: Int) -> String {
        let text = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
