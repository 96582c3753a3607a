import Foundation

// AVTime.h's NSValue additions: times, ranges and mappings boxed for Foundation
// collections, as `generateCGImagesAsynchronously(forTimes:)` and KVO take them. Linux's
// Foundation boxes only C scalars and arrays, so the value is kept as its bytes (an array
// of unsigned chars of the struct's size); equal values compare equal.
extension NSValue {
    /// A boxed `CMTime`.
    public convenience init(time: CMTime) {
        var value = time
        self.init(bytes: &value, objCType: "[\(MemoryLayout<CMTime>.size)C]")
    }

    /// The `CMTime` this value holds (`.invalid` when it holds something else).
    public var timeValue: CMTime { unboxed(CMTime.invalid) }

    /// A boxed `CMTimeRange`.
    public convenience init(timeRange: CMTimeRange) {
        var value = timeRange
        self.init(bytes: &value, objCType: "[\(MemoryLayout<CMTimeRange>.size)C]")
    }

    /// The `CMTimeRange` this value holds (`.invalid` when it holds something else).
    public var timeRangeValue: CMTimeRange { unboxed(CMTimeRange.invalid) }

    /// A boxed `CMTimeMapping`.
    public convenience init(timeMapping: CMTimeMapping) {
        var value = timeMapping
        self.init(bytes: &value, objCType: "[\(MemoryLayout<CMTimeMapping>.size)C]")
    }

    /// The `CMTimeMapping` this value holds (`.invalid` when it holds something else).
    public var timeMappingValue: CMTimeMapping { unboxed(CMTimeMapping.invalid) }

    /// The bytes as a `T` when the value was boxed from one, else `fallback`.
    private func unboxed<T>(_ fallback: T) -> T {
        guard String(cString: objCType) == "[\(MemoryLayout<T>.size)C]" else { return fallback }
        var value = fallback
        withUnsafeMutableBytes(of: &value) { getValue($0.baseAddress!) }
        return value
    }
}
