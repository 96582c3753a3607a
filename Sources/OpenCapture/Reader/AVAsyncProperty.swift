import Foundation

/// The type-erased base of `AVAsyncProperty`, as in Apple's Swift overlay.
public class AVAnyAsyncProperty: @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// A property of an asset or track that loads asynchronously:
/// `try await asset.load(.duration)`, `try await track.load(.naturalSize)`.
///
/// Linux reads the whole file description when the first property is loaded, so every
/// property of an asset loads together.
public final class AVAsyncProperty<Root, Value>: AVAnyAsyncProperty, @unchecked Sendable {
    let read: (Root) throws -> Value

    init(_ name: String, _ read: @escaping (Root) throws -> Value) {
        self.read = read
        super.init(name: name)
    }

    /// Where a property's loading is.
    public enum Status {
        case notYetLoaded
        case loading
        case loaded(Value)
        case failed(any Error)
    }
}

/// Loading properties asynchronously, as AVAsynchronousKeyValueLoading.h declares it.
public protocol AVAsynchronousKeyValueLoading {
    /// Loads the properties named `keys` and then calls `handler` (on a background queue).
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsynchronousKeyValueLoading {
    /// Loads one property; throws the error that kept it from loading.
    public func load<T>(_ property: AVAsyncProperty<Self, T>) async throws -> T {
        try property.read(self)
    }

    /// Loads two properties at once.
    public func load<A, B>(_ propertyA: AVAsyncProperty<Self, A>, _ propertyB: AVAsyncProperty<Self, B>) async throws -> (A, B) {
        (try propertyA.read(self), try propertyB.read(self))
    }

    /// Loads three properties at once.
    public func load<A, B, C>(
        _ propertyA: AVAsyncProperty<Self, A>, _ propertyB: AVAsyncProperty<Self, B>, _ propertyC: AVAsyncProperty<Self, C>
    ) async throws -> (A, B, C) {
        (try propertyA.read(self), try propertyB.read(self), try propertyC.read(self))
    }

    /// Whether a property has loaded: `.loaded` or `.failed` once its asset was read (Linux
    /// reads it on first use), else `.notYetLoaded`.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        guard (self as? AVAssetDescribing)?.isDescribed ?? true else { return .notYetLoaded }
        do { return .loaded(try property.read(self)) } catch { return .failed(error) }
    }
}

/// Assets and tracks that know whether their file was read yet.
protocol AVAssetDescribing {
    var isDescribed: Bool { get }
}

extension AVAsyncProperty where Root: AVAsset, Value == CMTime {
    public static var duration: AVAsyncProperty<Root, CMTime> { .init("duration") { try $0.describedFile().duration } }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVAssetTrack] {
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { .init("tracks") { try $0.describedTracks() } }
}

extension AVAsyncProperty where Root: AVAsset, Value == [AVMetadataItem] {
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> { .init("metadata") { _ = try $0.describedFile(); return $0.metadata } }
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        .init("commonMetadata") { _ = try $0.describedFile(); return $0.commonMetadata }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == CGAffineTransform {
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        .init("preferredTransform") { _ = try $0.describedFile(); return $0.preferredTransform }
    }
}

extension AVAsyncProperty where Root: AVAsset, Value == Bool {
    public static var isPlayable: AVAsyncProperty<Root, Bool> { .init("playable") { _ = try $0.describedFile(); return $0.isPlayable } }
    public static var isReadable: AVAsyncProperty<Root, Bool> { .init("readable") { _ = try $0.describedFile(); return $0.isReadable } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CGSize {
    public static var naturalSize: AVAsyncProperty<Root, CGSize> { .init("naturalSize") { $0.naturalSize } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CGAffineTransform {
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> { .init("preferredTransform") { $0.preferredTransform } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Float {
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> { .init("nominalFrameRate") { $0.nominalFrameRate } }
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> { .init("estimatedDataRate") { $0.estimatedDataRate } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == CMTimeRange {
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { .init("timeRange") { $0.timeRange } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [CMFormatDescription] {
    public static var formatDescriptions: AVAsyncProperty<Root, [CMFormatDescription]> {
        .init("formatDescriptions") { $0.formatDescriptions.compactMap { $0 as? CMFormatDescription } }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [AVMediaCharacteristic] {
    public static var mediaCharacteristics: AVAsyncProperty<Root, [AVMediaCharacteristic]> { .init("mediaCharacteristics") { $0.mediaCharacteristics } }
}
