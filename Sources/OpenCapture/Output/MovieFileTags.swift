import Foundation

/// The movie-level tags of an `AVCaptureMovieFileOutput` recording. As Apple's recordings
/// do, a file says what made it in QuickTime metadata keys: com.apple.quicktime.make and
/// .model (the capturing device's `manufacturer` and `modelID`), .software ("OpenCapture")
/// and .creationdate (when recording started, local time with its offset), with the 'mvhd'
/// creation time. The app's own `metadata` items win: its make, model and software replace
/// these (written under the same keys) and its creation date replaces both dates.
///
/// The recorder writes the tags as 'mdta' keys (libavformat's use_metadata_tags): the mp4
/// muxer drops make and model in any other form, and "encoder" (the software item's FFmpeg
/// name) is always replaced by libavformat's own name. ffprobe shows the keys as format
/// tags; exiftool as Keys:Make, Keys:Model, Keys:Software and Keys:CreationDate.
enum MovieFileTags {
    static let make = "com.apple.quicktime.make"
    static let model = "com.apple.quicktime.model"
    static let software = "com.apple.quicktime.software"
    static let creationDate = "com.apple.quicktime.creationdate"
    /// What recordings name as their software.
    static let softwareName = "OpenCapture"

    /// The tags of a recording: the app's (`AVMetadataItem.movieTag`, FFmpeg's names), its
    /// make, model and software under Apple's keys, then the defaults it did not set.
    static func tags(app: [(String, String)], make: String?, model: String?, start: Date) -> [(String, String)] {
        let renamed = ["make": Self.make, "model": Self.model, "encoder": Self.software]
        var tags = app.map { (renamed[$0.0] ?? $0.0, $0.1) }
        func addUnlessSet(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty, !tags.contains(where: { $0.0 == key }) else { return }
            tags.append((key, value))
        }
        addUnlessSet(Self.make, make)
        addUnlessSet(Self.model, model)
        addUnlessSet(Self.software, softwareName)
        if !tags.contains(where: { $0.0 == "creation_time" }) {
            let utc = ISO8601DateFormatter()
            utc.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            tags.append(("creation_time", utc.string(from: start)))
            addUnlessSet(creationDate, localDate(start))
        }
        return tags
    }

    /// `date` as Apple's recordings write com.apple.quicktime.creationdate:
    /// "2024-05-01T14:03:22+0200", in the local time zone.
    static func localDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
        return formatter.string(from: date)
    }
}
