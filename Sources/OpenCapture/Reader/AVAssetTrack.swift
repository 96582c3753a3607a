import Foundation
import MediaIO

/// One track of an asset: its media type, format, size, rate and time range, as the file's
/// stream describes it (MediaIO's `MovieTrackInfo`).
///
/// Threads: every property may be called from any thread.
open class AVAssetTrack: NSObject, @unchecked Sendable, AVAsynchronousKeyValueLoading {
    private weak var weakAsset: AVAsset?
    /// The asset the track belongs to.
    open var asset: AVAsset? { weakAsset }
    let info: MovieTrackInfo

    init(asset: AVAsset, info: MovieTrackInfo) {
        self.weakAsset = asset
        self.info = info
        super.init()
    }

    open var trackID: CMPersistentTrackID { info.trackID }
    /// `.video`, `.audio`, else `.metadata` for data and subtitle streams.
    open var mediaType: AVMediaType {
        switch info.kind {
        case .video: .video
        case .audio: .audio
        case .other: .metadata
        }
    }

    /// One format description: the codec's four-character code with the picture size, or
    /// the audio's AudioStreamBasicDescription.
    open var formatDescriptions: [Any] {
        switch info.kind {
        case .video:
            var format: CMFormatDescription?
            CMVideoFormatDescriptionCreate(
                allocator: nil, codecType: Self.codecType(info.codecName), width: Int32(info.width), height: Int32(info.height), extensions: nil,
                formatDescriptionOut: &format)
            return format.map { [$0] } ?? []
        case .audio:
            let pcm = info.codecName.hasPrefix("pcm_")
            let asbd = AudioStreamBasicDescription(
                mSampleRate: Float64(info.sampleRate), mFormatID: pcm ? kAudioFormatLinearPCM : Self.codecType(info.codecName),
                mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: pcm ? 1 : info.codecName == "aac" ? 1024 : 0, mBytesPerFrame: 0,
                mChannelsPerFrame: UInt32(info.channels), mBitsPerChannel: 0, mReserved: 0)
            return (try? CMAudioFormatDescription(audioStreamBasicDescription: asbd)).map { [$0] } ?? []
        case .other:
            // A boxed timed-metadata track: its keys, as the format description says them.
            guard let url = asset?.fileURL, let reader = try? MovieMetadataTrackReader(url: url, track: info) else { return [] }
            return [CMFormatDescription(metadataSubType: kCMMetadataFormatType_Boxed, keys: TimedMetadataCoding.entries(of: reader.keys))]
        }
    }

    /// Whether FFmpeg has a decoder for the track.
    open var isPlayable: Bool { info.kind != .other && info.decodable }
    open var isDecodable: Bool { isPlayable }
    open var isEnabled: Bool { true }
    open var isSelfContained: Bool { true }
    open var timeRange: CMTimeRange { CMTimeRange(start: info.start, duration: info.duration) }
    open var naturalTimeScale: CMTimeScale { info.timeScale }
    /// Bits per second of the track's data.
    open var estimatedDataRate: Float { Float(info.bitRate) }
    /// The stored picture size (zero for audio).
    open var naturalSize: CGSize { CGSize(width: info.width, height: info.height) }
    /// The display matrix as a transform: the rotation players apply, translated so the
    /// picture stays in the positive quadrant (Apple's form for rotated camera movies).
    open var preferredTransform: CGAffineTransform {
        let width = CGFloat(info.width), height = CGFloat(info.height)
        switch info.rotationDegrees {
        case 90: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: height, ty: 0)
        case 180: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: width, ty: height)
        case 270: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: width)
        default: return .identity
        }
    }
    open var preferredVolume: Float { info.kind == .audio ? 1 : 0 }
    /// Frames per second (0 for audio).
    open var nominalFrameRate: Float { Float(info.frameRate) }
    /// The shortest frame duration: one nominal frame.
    open var minFrameDuration: CMTime {
        info.frameRate > 0 ? CMTime(seconds: 1 / info.frameRate, preferredTimescale: max(info.timeScale, 600)) : .invalid
    }
    open var metadata: [AVMetadataItem] { [] }
    open var commonMetadata: [AVMetadataItem] { [] }

    /// The track's language as an ISO 639-2/T code ("und" when the file says undetermined),
    /// nil when the file gives none (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.languageCode) instead")
    open var languageCode: String? { info.language }

    /// Whether the samples decode in another order than they are shown (B-frames)
    /// (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.requiresFrameReordering) instead")
    open var requiresFrameReordering: Bool { info.reordersFrames }

    /// The metadata formats of the track's `metadata` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableMetadataFormats) instead")
    open var availableMetadataFormats: [AVMetadataFormat] { metadataFormats }

    /// The items of `metadata` in `format` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadMetadata(for:) instead")
    open func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] { metadataItems(for: format) }

    /// Loads the items of `metadata` in `format`.
    open func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] { metadataItems(for: format) }

    /// The track's characteristics: video is visual and frame based, audio audible.
    open var mediaCharacteristics: [AVMediaCharacteristic] {
        switch mediaType {
        case .video: [.visual, .frameBased]
        case .audio: [.audible]
        default: []
        }
    }

    /// Whether the track has a characteristic (see `mediaCharacteristics`).
    @available(iOS, deprecated: 16.0, message: "Use load(.mediaCharacteristics) instead")
    open func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        mediaCharacteristics.contains(mediaCharacteristic)
    }

    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        DispatchQueue.global().async { handler?() }
    }

    /// The four-character code of FFmpeg's codec name.
    static func codecType(_ name: String) -> FourCharCode {
        let code: String
        switch name {
        case "h264": code = "avc1"
        case "hevc": code = "hvc1"
        case "mjpeg": code = "jpeg"
        case "prores": code = "apcn"
        case "rawvideo": code = "y420"
        case "aac": code = "aac "
        case "mp3": code = ".mp3"
        case "alac": code = "alac"
        case "ac3": code = "ac-3"
        case "opus": code = "opus"
        case "flac": code = "flac"
        default: return 0
        }
        return code.utf8.reduce(0) { $0 << 8 | FourCharCode($1) }
    }
}
