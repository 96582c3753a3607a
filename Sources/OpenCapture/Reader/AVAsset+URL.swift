import Foundation

/// What lets `AVAsset(url:)` hand back an `AVURLAsset`, as Apple's `+assetWithURL:` does: a
/// Swift initializer cannot return an instance of a subclass, except one in a protocol
/// extension, which may assign `self`. Not for use by apps.
public protocol _AVAssetURLFactory {}

extension AVAsset: _AVAssetURLFactory {}

extension _AVAssetURLFactory where Self == AVAsset {
    /// An asset of the file at `URL` (iOS 15's spelling of `AVURLAsset(url:)`): the object
    /// is an `AVURLAsset`, so `asset as? AVURLAsset` succeeds, as on iOS.
    public init(url URL: URL) {
        self = AVURLAsset(url: URL)
    }
}
