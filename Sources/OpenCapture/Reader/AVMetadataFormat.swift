import Foundation

/// The metadata formats of AVMetadataFormat.h: the containers' metadata kinds an asset
/// or track lists in `availableMetadataFormats` and filters by with `metadata(forFormat:)`
/// (deprecated in iOS 16) or `loadMetadata(for:)`.
public struct AVMetadataFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let quickTimeUserData = AVMetadataFormat(rawValue: "com.apple.quicktime.udta")
    public static let isoUserData = AVMetadataFormat(rawValue: "org.mp4ra")
    public static let quickTimeMetadata = AVMetadataFormat(rawValue: "com.apple.quicktime.mdta")
    public static let iTunesMetadata = AVMetadataFormat(rawValue: "com.apple.itunes")
    public static let id3Metadata = AVMetadataFormat(rawValue: "org.id3")
    public static let hlsMetadata = AVMetadataFormat(rawValue: "com.apple.quicktime.HLS")
    public static let unknown = AVMetadataFormat(rawValue: "UNKNOWN")
}

extension AVAsset {
    /// The formats of `metadata`: its items are QuickTime-metadata items here (FFmpeg's tags
    /// mapped to 'mdta' keys, see `AVAsset.metadata`), so that format when there are any.
    var metadataFormats: [AVMetadataFormat] { metadata.isEmpty ? [] : [.quickTimeMetadata] }

    /// The items of `metadata` in `format`.
    func metadataItems(for format: AVMetadataFormat) -> [AVMetadataItem] {
        metadataFormats.contains(format) ? metadata : []
    }
}

extension AVAssetTrack {
    /// A track's metadata is not read (`metadata` is empty), so it lists no format.
    var metadataFormats: [AVMetadataFormat] { metadata.isEmpty ? [] : [.quickTimeMetadata] }

    func metadataItems(for format: AVMetadataFormat) -> [AVMetadataItem] {
        metadataFormats.contains(format) ? metadata : []
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVMetadataFormat] {
    /// The replacement of the iOS 16-deprecated `availableMetadataFormats`.
    public static var availableMetadataFormats: AVAsyncProperty<Root, [AVMetadataFormat]> {
        .init("availableMetadataFormats") { _ = try $0.describedFile(); return $0.metadataFormats }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [AVMetadataFormat] {
    /// The replacement of the iOS 16-deprecated `availableMetadataFormats`.
    public static var availableMetadataFormats: AVAsyncProperty<Root, [AVMetadataFormat]> {
        .init("availableMetadataFormats") { $0.metadataFormats }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == String? {
    /// The replacement of the iOS 16-deprecated `lyrics`.
    public static var lyrics: AVAsyncProperty<Root, String?> {
        .init("lyrics") { try $0.describedFile().metadata["lyrics"] }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == String? {
    /// The replacement of the iOS 16-deprecated `languageCode`.
    public static var languageCode: AVAsyncProperty<Root, String?> { .init("languageCode") { $0.info.language } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Bool {
    /// The replacement of the iOS 16-deprecated `requiresFrameReordering`.
    public static var requiresFrameReordering: AVAsyncProperty<Root, Bool> { .init("requiresFrameReordering") { $0.info.reordersFrames } }
}
