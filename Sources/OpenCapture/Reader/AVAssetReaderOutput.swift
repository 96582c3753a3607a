import Foundation
import MediaIO

/// What an `AVAssetReader` reads into: the base class of the track and audio mix outputs.
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    /// The reader the output was added to (weak: the reader owns its outputs).
    weak var reader: AVAssetReader?
    private let flags = Mutex((alwaysCopies: true, supportsRandomAccess: false))

    override init() { super.init() }

    /// The media type of the samples read.
    open var mediaType: AVMediaType { .video }

    /// Whether each sample buffer is the reader's own copy that the caller may modify.
    /// Linux always hands out buffers made for the call, so both values give copies.
    open var alwaysCopiesSampleData: Bool {
        get { flags.withLock { $0.alwaysCopies } }
        set { flags.withLock { $0.alwaysCopies = newValue } }
    }

    /// Whether `reset(forReadingTimeRanges:)` may be used; kept only (Linux has no reset).
    open var supportsRandomAccess: Bool {
        get { flags.withLock { $0.supportsRandomAccess } }
        set { flags.withLock { $0.supportsRandomAccess = newValue } }
    }

    /// The next sample buffer, nil when the track (or time range) has ended, reading
    /// failed or was cancelled. Raises unless the output was added to a reader that
    /// started reading.
    open func copyNextSampleBuffer() -> CMSampleBuffer? {
        AVCaptureException(.generic, "copyNextSampleBuffer is implemented by AVAssetReaderOutput's subclasses").raise()
    }

    // Overridden by the track and audio mix outputs.
    /// The tracks the output reads (all must be of the reader's asset).
    var readTracks: [AVAssetTrack] { [] }
    var isSupported: Bool { false }
    var isFinished: Bool { true }
    func open(_ range: CMTimeRange) throws {}
    func close() {}
}
