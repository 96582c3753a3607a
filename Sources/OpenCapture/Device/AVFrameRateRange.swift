import Foundation

/// A range of frame rates a format supports.
open class AVFrameRateRange: NSObject, @unchecked Sendable {
    private let storedMinFrameRate: Float64
    /// The lowest frame rate, frames per second.
    open var minFrameRate: Float64 { storedMinFrameRate }
    private let storedMaxFrameRate: Float64
    /// The highest frame rate, frames per second.
    open var maxFrameRate: Float64 { storedMaxFrameRate }

    package init(_ range: ClosedRange<Double>) {
        storedMinFrameRate = range.lowerBound
        storedMaxFrameRate = range.upperBound
    }

    /// The shortest frame duration: 1 / maxFrameRate.
    open var minFrameDuration: CMTime { AVFrameRateRange.duration(forRate: maxFrameRate) }
    /// The longest frame duration: 1 / minFrameRate.
    open var maxFrameDuration: CMTime { AVFrameRateRange.duration(forRate: minFrameRate) }

    /// An exact duration for a rate: 1/30 for 30, 1001/30000 for 29.97.
    ///
    /// Total over every `Double`, as rates read from files can be anything: a rate whose
    /// exact form does not fit a 32-bit timescale (2,500,000.5 fps from a crafted MP4) gets
    /// the nearest time CMTime holds, and one that is not positive and finite `.invalid`.
    package static func duration(forRate rate: Double) -> CMTime {
        guard rate.isFinite, rate > 0 else { return .invalid }
        let limit = Double(CMTimeScale.max)
        if rate.rounded() == rate, rate <= limit { return CMTime(value: 1, timescale: CMTimeScale(rate)) }
        let milli = (rate * 1000).rounded()
        if milli >= 1, milli <= limit { return CMTime(value: 1000, timescale: CMTimeScale(milli)) }
        // Beyond both: as fine a timescale as the interval allows (positive infinity for
        // one longer than any CMTime).
        return CMTime(seconds: 1 / rate, preferredTimescale: .max)
    }

    /// Whether a frame duration lies inside the range (a tolerance of 1 µs absorbs rounding).
    package func contains(duration: CMTime) -> Bool {
        guard duration.isNumeric else { return false }
        let seconds = duration.seconds
        return seconds >= minFrameDuration.seconds - 1e-6 && seconds <= maxFrameDuration.seconds + 1e-6
    }

    open override var description: String {
        String(format: "<AVFrameRateRange: %p %.0f - %.0f>", unsafeBitCast(self, to: Int.self), minFrameRate, maxFrameRate)
    }
}
