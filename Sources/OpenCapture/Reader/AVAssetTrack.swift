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

    /// The track's packets, read on first use (`totalSampleDataLength`,
    /// `samplePresentationTime(forTrackTime:)`, `hasAudioSampleDependencies`).
    private let packets = Mutex<Result<MoviePacketIndex, AVError>?>(nil)
    /// The asset's file, kept so the packets can be read after the asset is released.
    private let fileURL: URL?

    init(asset: AVAsset, info: MovieTrackInfo) {
        self.weakAsset = asset
        self.info = info
        self.fileURL = asset.fileURL
        super.init()
    }

    open var trackID: CMPersistentTrackID { info.trackID }
    /// `.video`, `.audio`; another stream is what its 'hdlr' box says where that is a
    /// legible type (`.subtitle` 'sbtl', `.text`, `.closedCaption` 'clcp'), else `.metadata`.
    open var mediaType: AVMediaType {
        switch info.kind {
        case .video: .video
        case .audio: .audio
        case .other: legibleHandlerType ?? .metadata
        }
    }

    /// The file's handler type for this track when it is a legible one.
    var legibleHandlerType: AVMediaType? {
        guard let handler = asset?.fileBoxes.handlerTypes[info.trackID] else { return nil }
        let type = AVMediaType(rawValue: handler)
        return [.subtitle, .text, .closedCaption].contains(type) ? type : nil
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
            if let legible = legibleHandlerType {
                let type = legible.rawValue.utf8.reduce(0) { $0 << 8 | FourCharCode($1) }
                return [CMFormatDescription(mediaType: type, mediaSubType: Self.codecType(info.codecName), dimensions: CMVideoDimensions(width: 0, height: 0))]
            }
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

    // MARK: Segments and samples

    /// The time mappings of the track's media to its timeline: libavformat applies a file's
    /// edit list when it reads and does not expose it, so a file track has one segment
    /// mapping its media range onto itself, after an empty segment when the track starts
    /// later than 0 (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.segments) instead")
    @_disfavoredOverload
    open var segments: [AVAssetTrackSegment] { fileSegments }

    var fileSegments: [AVAssetTrackSegment] {
        let range = timeRange
        guard range.duration.isNumeric, range.duration > .zero else { return [] }
        var result: [AVAssetTrackSegment] = []
        if range.start > .zero {
            result.append(AVAssetTrackSegment(timeMapping: CMTimeMapping(
                source: CMTimeRange(start: .invalid, duration: range.start), target: CMTimeRange(start: .zero, duration: range.start))))
        }
        result.append(AVAssetTrackSegment(timeMapping: CMTimeMapping(source: range, target: range)))
        return result
    }

    /// The segment whose target range contains `trackTime`, else the closest one; nil
    /// without segments (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadSegment(forTrackTime:) instead")
    @_disfavoredOverload
    open func segment(forTrackTime trackTime: CMTime) -> AVAssetTrackSegment? { Self.segment(in: fileSegments, at: trackTime) }

    /// Loads the segment for a track time.
    open func loadSegment(forTrackTime trackTime: CMTime) async throws -> AVAssetTrackSegment? {
        Self.segment(in: fileSegments, at: trackTime)
    }

    static func segment<Segment: AVAssetTrackSegment>(in segments: [Segment], at time: CMTime) -> Segment? {
        guard time.isNumeric else { return nil }
        if let containing = segments.first(where: { CMTimeRangeContainsTime($0.timeMapping.target, time: time) }) { return containing }
        func distance(_ segment: Segment) -> Double {
            let target = segment.timeMapping.target
            return min(abs((target.start - time).seconds), abs((target.end - time).seconds))
        }
        return segments.min { distance($0) < distance($1) }
    }

    /// The presentation time of the sample shown at `trackTime` (the latest sample starting
    /// at or before it); `.invalid` outside the track's time range or for a file that cannot
    /// be read (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadSamplePresentationTime(forTrackTime:) instead")
    open func samplePresentationTime(forTrackTime trackTime: CMTime) -> CMTime {
        (try? presentationTime(trackTime)) ?? .invalid
    }

    /// Loads the presentation time of the sample shown at a track time.
    open func loadSamplePresentationTime(forTrackTime trackTime: CMTime) async throws -> CMTime {
        try presentationTime(trackTime)
    }

    private func presentationTime(_ trackTime: CMTime) throws -> CMTime {
        let range = timeRange
        guard trackTime.isNumeric, trackTime >= range.start, trackTime < range.end else { return .invalid }
        return try packetIndex().presentationTime(at: trackTime) ?? .invalid
    }

    /// The bytes of the track's samples: the sum of its packet sizes as libavformat reads
    /// them; 0 for a file that cannot be read (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.totalSampleDataLength) instead")
    open var totalSampleDataLength: Int64 { (try? packetIndex().totalBytes) ?? 0 }

    /// Whether an audio track's samples depend on earlier ones to decode: the file marks
    /// some of its audio packets as not sync samples (as USAC in MP4 does; AAC, PCM, MP3
    /// packets are all sync). False for other tracks (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.hasAudioSampleDependencies) instead")
    open var hasAudioSampleDependencies: Bool { audioSampleDependencies }

    var audioSampleDependencies: Bool { info.kind == .audio && ((try? packetIndex().dependentPackets) ?? 0) > 0 }

    /// The track's packets, read once.
    func packetIndex() throws -> MoviePacketIndex {
        if let known = packets.withLock({ $0 }) { return try known.get() }
        let result: Result<MoviePacketIndex, AVError>
        if let url = fileURL {
            do { result = .success(try MoviePacketIndex(url: url, track: info)) } catch { result = .failure(AVAssetReader.avError(error)) }
        } else {
            result = .failure(AVError(.fileFormatNotRecognized, "The track has no file"))
        }
        packets.withLock { $0 = result }
        return try result.get()
    }

    // MARK: Language and associations

    /// The track's BCP 47 language tag (the 'elng' box), nil without one (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.extendedLanguageTag) instead")
    open var extendedLanguageTag: String? { fileExtendedLanguageTag }

    var fileExtendedLanguageTag: String? { asset?.fileBoxes.extendedLanguageTags[info.trackID] }

    /// The association types of the file's references from this track ('tref'), in the
    /// file's order; empty without references (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableTrackAssociationTypes) instead")
    open var availableTrackAssociationTypes: [AVAssetTrack.AssociationType] { fileAssociationTypes }

    var fileAssociationTypes: [AVAssetTrack.AssociationType] {
        var types: [AVAssetTrack.AssociationType] = []
        for reference in asset?.fileBoxes.references[info.trackID] ?? [] where !types.contains(.init(rawValue: reference.type)) {
            types.append(.init(rawValue: reference.type))
        }
        return types
    }

    /// The asset's tracks this track refers to by `trackAssociationType` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadAssociatedTracks(ofType:) instead")
    open func associatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) -> [AVAssetTrack] {
        fileAssociatedTracks(trackAssociationType)
    }

    /// Loads the asset's tracks this track refers to by a type.
    open func loadAssociatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) async throws -> [AVAssetTrack] {
        fileAssociatedTracks(trackAssociationType)
    }

    func fileAssociatedTracks(_ type: AVAssetTrack.AssociationType) -> [AVAssetTrack] {
        guard let asset else { return [] }
        let ids = (asset.fileBoxes.references[info.trackID] ?? []).filter { $0.type == type.rawValue }.flatMap(\.trackIDs)
        return ids.compactMap { asset.track(withTrackID: $0) }
    }

    /// The metadata formats of the track's `metadata` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableMetadataFormats) instead")
    open var availableMetadataFormats: [AVMetadataFormat] { metadataFormats }

    /// The items of `metadata` in `format` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadMetadata(for:) instead")
    open func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] { metadataItems(for: format) }

    /// Loads the items of `metadata` in `format`.
    open func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] { metadataItems(for: format) }

    /// The track's characteristics: video is visual and frame based, audio audible,
    /// subtitles, text and closed captions legible.
    open var mediaCharacteristics: [AVMediaCharacteristic] {
        switch mediaType {
        case .video: [.visual, .frameBased]
        case .audio: [.audible]
        case .subtitle, .text, .closedCaption: [.legible]
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
        case "mov_text": code = "tx3g"
        default: return 0
        }
        return code.utf8.reduce(0) { $0 << 8 | FourCharCode($1) }
    }
}
