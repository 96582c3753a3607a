import Foundation

// The `load(_:)` replacements of the iOS 16-deprecated compatibility accessors of the
// deprecation walk (#30); the rule is on the properties (AVAsset.swift).

extension AVAsyncProperty where Root: AVAsset, Value == Bool {
    /// The replacement of the iOS 16-deprecated `isCompatibleWithSavedPhotosAlbum`.
    public static var isCompatibleWithSavedPhotosAlbum: AVAsyncProperty<Root, Bool> {
        .init("isCompatibleWithSavedPhotosAlbum") { _ = try $0.describedFile(); return $0.isCompatibleWithSavedPhotosAlbum }
    }
    /// The replacement of the iOS 16-deprecated `isCompatibleWithAirPlayVideo`.
    public static var isCompatibleWithAirPlayVideo: AVAsyncProperty<Root, Bool> {
        .init("isCompatibleWithAirPlayVideo") { _ = try $0.describedFile(); return $0.isCompatibleWithAirPlayVideo }
    }
}
