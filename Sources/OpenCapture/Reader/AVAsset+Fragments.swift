import Foundation

// The `load(_:)` replacements of the iOS 16-deprecated AVAsset accessors of the
// deprecation walk (#30) read from the file's boxes: protected content and fragments.

extension AVAsyncProperty where Root: AVAsset, Value == Bool {
    /// The replacement of the iOS 16-deprecated `hasProtectedContent`.
    public static var hasProtectedContent: AVAsyncProperty<Root, Bool> {
        .init("hasProtectedContent") { _ = try $0.describedFile(); return $0.hasProtectedContent }
    }
    /// The replacement of the iOS 16-deprecated `canContainFragments`.
    public static var canContainFragments: AVAsyncProperty<Root, Bool> {
        .init("canContainFragments") { _ = try $0.describedFile(); return $0.canContainFragments }
    }
    /// The replacement of the iOS 16-deprecated `containsFragments`.
    public static var containsFragments: AVAsyncProperty<Root, Bool> {
        .init("containsFragments") { _ = try $0.describedFile(); return $0.containsFragments }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == CMTime {
    /// The replacement of the iOS 16-deprecated `overallDurationHint`.
    public static var overallDurationHint: AVAsyncProperty<Root, CMTime> {
        .init("overallDurationHint") { _ = try $0.describedFile(); return $0.overallDurationHint }
    }
}
