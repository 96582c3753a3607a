import Foundation
import MediaIO

/// Timed media: the tracks, duration and metadata of a file. Create one with
/// `AVURLAsset(url:)`; Linux reads local files with libavformat (MediaIO's `MovieReader`).
///
/// The file is read the first time a property is asked for, synchronously for the
/// deprecated synchronous properties and the `load(_:)` forms alike; a file that cannot be
/// read gives an empty `tracks`, a zero `duration`, and `load(_:)` throws the AVError.
///
/// Threads: every property and method may be called from any thread.
open class AVAsset: NSObject, @unchecked Sendable, AVAsynchronousKeyValueLoading, AVAssetDescribing {
    struct Described {
        var reader: MovieReader
        var tracks: [AVAssetTrack]
    }

    private let described = Mutex<Result<Described, AVError>?>(nil)
    /// The file's ISO base-media boxes (track references, fragments), read on first use.
    private let boxes = Mutex<MovieFileBoxes?>(nil)

    /// What the file's boxes say; the empty summary for an asset without a file.
    var fileBoxes: MovieFileBoxes {
        if let known = boxes.withLock({ $0 }) { return known }
        let read = fileURL.map { MovieFileBoxes(url: $0) } ?? MovieFileBoxes()
        boxes.withLock { $0 = read }
        return read
    }

    /// The file the asset reads (nil for an asset without one).
    var fileURL: URL? { nil }

    public override init() { super.init() }

    var isDescribed: Bool { described.withLock { $0 != nil } }

    /// The file's description, read on first use.
    func describedFile() throws -> MovieReader { try describe().reader }

    func describedTracks() throws -> [AVAssetTrack] { try describe().tracks }

    private func describe() throws -> Described {
        if let known = described.withLock({ $0 }) { return try known.get() }
        let result: Result<Described, AVError>
        if let url = fileURL {
            do {
                let reader = try MovieReader(url: url)
                result = .success(Described(reader: reader, tracks: []))
            } catch {
                result = .failure(AVAssetReader.avError(error))
            }
        } else {
            result = .failure(AVError(.fileFormatNotRecognized, "The asset has no media"))
        }
        // Tracks refer back to the asset, so they are made once the reader is known.
        let made = result.map { value in
            Described(reader: value.reader, tracks: value.reader.tracks.map { AVAssetTrack(asset: self, info: $0) })
        }
        return try described.withLock { stored in
            if stored == nil { stored = made }
            return stored!
        }.get()
    }

    // MARK: Properties

    /// The longest track's end; `.zero` for a file that cannot be read.
    open var duration: CMTime { (try? describedFile().duration) ?? .zero }
    open var preferredRate: Float { 1 }
    open var preferredVolume: Float { 1 }
    /// The first video track's transform (Linux: the movie matrix is not read separately).
    open var preferredTransform: CGAffineTransform {
        (try? describedTracks().first { $0.mediaType == .video }?.preferredTransform) ?? .identity
    }
    /// Whether the times read are exact: always, the file's index is read.
    open var providesPreciseDurationAndTiming: Bool { true }

    // The track accessors are disfavoured overloads so that a composition's refined ones
    // (`[AVCompositionTrack]`, `[AVMutableCompositionTrack]`, see AVComposition+Tracks.swift)
    // win where both apply, as Apple's subclasses refine them; alone they are chosen as usual.

    /// The asset's tracks.
    @_disfavoredOverload
    open var tracks: [AVAssetTrack] { (try? describedTracks()) ?? [] }

    /// The tracks of a media type.
    @_disfavoredOverload
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        ((try? describedTracks()) ?? []).filter { $0.mediaType == mediaType }
    }

    /// The track with an ID, nil if there is none.
    open func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        ((try? describedTracks()) ?? []).first { $0.trackID == trackID }
    }

    /// Loads the tracks of a media type.
    @_disfavoredOverload
    open func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        try describedTracks().filter { $0.mediaType == mediaType }
    }

    /// The tracks with a media characteristic (`.visual`, `.audible`, `.frameBased` …).
    @_disfavoredOverload
    open func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVAssetTrack] {
        tracks.filter { $0.mediaCharacteristics.contains(mediaCharacteristic) }
    }

    /// Loads the tracks with a media characteristic.
    @_disfavoredOverload
    open func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVAssetTrack] {
        try describedTracks().filter { $0.mediaCharacteristics.contains(mediaCharacteristic) }
    }

    /// Loads the track with an ID.
    open func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        try describedTracks().first { $0.trackID == trackID }
    }

    /// The file's movie-level tags, as QuickTime-metadata items with their common keys.
    open var metadata: [AVMetadataItem] {
        guard let tags = try? describedFile().metadata else { return [] }
        return Self.items(tags, keySpace: .quickTimeMetadata)
    }

    /// The items of `metadata` that have a common key, in the common key space.
    open var commonMetadata: [AVMetadataItem] {
        guard let tags = try? describedFile().metadata else { return [] }
        return Self.items(tags, keySpace: .common)
    }

    /// The metadata formats of the asset's `metadata` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.availableMetadataFormats) instead")
    open var availableMetadataFormats: [AVMetadataFormat] { metadataFormats }

    /// The items of `metadata` in `format` (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use loadMetadata(for:) instead")
    open func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] { metadataItems(for: format) }

    /// Loads the items of `metadata` in `format`.
    open func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] {
        _ = try describedFile()
        return metadataItems(for: format)
    }

    /// The lyrics tag ('©lyr'), nil without one (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.lyrics) instead")
    open var lyrics: String? { try? describedFile().metadata["lyrics"] }

    /// The first video track's stored size, zero without video (deprecated since iOS 5).
    @available(iOS, deprecated: 5.0, message: "Use the naturalSize and preferredTransform, as appropriate, of the asset's video tracks instead")
    open var naturalSize: CGSize { ((try? describedTracks()) ?? []).first { $0.mediaType == .video }?.naturalSize ?? .zero }

    /// Whether a track is encrypted: an ISO common-encryption sample entry ('encv',
    /// 'enca'…) in the file; FFmpeg opens the rest unencrypted (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.hasProtectedContent) instead")
    open var hasProtectedContent: Bool { fileBoxes.hasEncryptedTrack }

    /// Whether the file may have movie fragments: its movie has a movie-extends box
    /// ('mvex'), as fragmented MP4 writers put there (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.canContainFragments) instead")
    open var canContainFragments: Bool { fileBoxes.hasMovieExtends }

    /// Whether the file has at least one movie fragment ('moof') (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.containsFragments) instead")
    open var containsFragments: Bool { fileBoxes.hasMovieExtends && fileBoxes.fragmentCount > 0 }

    /// The duration of the fragments that are and may be appended: the 'mehd' box's
    /// fragment duration; `.invalid` when the file does not give one (deprecated in iOS 16).
    @available(iOS, deprecated: 16.0, message: "Use load(.overallDurationHint) instead")
    open var overallDurationHint: CMTime { fileBoxes.fragmentDuration ?? .invalid }

    /// Whether the movie can go into the Photos library (deprecated in iOS 16). The rule:
    /// a QuickTime/MPEG-4 file (FFmpeg's "mov" demuxer) with at least one video track,
    /// every video track H.264 or HEVC and every audio track AAC, ALAC, AC-3, E-AC-3 or
    /// linear PCM; other tracks (timed metadata, text, chapters) do not matter. An
    /// unreadable file is not compatible.
    @available(iOS, deprecated: 16.0, message: "Use load(.isCompatibleWithSavedPhotosAlbum) instead")
    open var isCompatibleWithSavedPhotosAlbum: Bool { Self.playsOnApplePlatforms(try? describedFile()) }

    /// Whether the movie can be played over AirPlay Video (deprecated in iOS 16): the
    /// same rule as `isCompatibleWithSavedPhotosAlbum`, the formats AirPlay receivers
    /// take (QuickTime/MPEG-4 with H.264/HEVC video and AAC, ALAC, AC-3, E-AC-3 or PCM audio).
    @available(iOS, deprecated: 16.0, message: "Use load(.isCompatibleWithAirPlayVideo) instead")
    open var isCompatibleWithAirPlayVideo: Bool { Self.playsOnApplePlatforms(try? describedFile()) }

    /// The rule of the two compatibility properties; false for an unreadable file.
    static func playsOnApplePlatforms(_ file: MovieReader?) -> Bool {
        guard let file, file.formatName.split(separator: ",").first == "mov" else { return false }
        let video = file.tracks.filter { $0.kind == .video }
        let audio = file.tracks.filter { $0.kind == .audio }
        let audioCodecs: Set<String> = ["aac", "alac", "ac3", "eac3"]
        return !video.isEmpty && video.allSatisfy { ["h264", "hevc"].contains($0.codecName) }
            && audio.allSatisfy { audioCodecs.contains($0.codecName) || $0.codecName.hasPrefix("pcm_") }
    }

    /// The creation date item, nil without one.
    open var creationDate: AVMetadataItem? { commonMetadata.first { $0.commonKey == .commonKeyCreationDate } }

    /// Whether the asset has a track FFmpeg can decode.
    open var isPlayable: Bool { ((try? describedTracks()) ?? []).contains { $0.isPlayable } }
    /// Whether the asset's media can be read (by `AVAssetReader`).
    open var isReadable: Bool { isPlayable }
    open var isExportable: Bool { false }
    open var isComposable: Bool { false }

    open func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        let asset = UncheckedSendable(self)
        DispatchQueue.global().async {
            _ = try? asset.value.describe()
            handler?()
        }
    }

    /// FFmpeg's movie tags as items: the QuickTime-metadata key (or common key) each maps to.
    private static func items(_ tags: [String: String], keySpace: AVMetadataKeySpace) -> [AVMetadataItem] {
        let names: [(String, AVMetadataKey, AVMetadataKey)] = [
            ("title", .commonKeyTitle, .quickTimeMetadataKeyTitle),
            ("description", .commonKeyDescription, .quickTimeMetadataKeyDescription),
            ("creation_time", .commonKeyCreationDate, .quickTimeMetadataKeyCreationDate),
            ("location", .commonKeyLocation, .quickTimeMetadataKeyLocationISO6709),
            ("make", .commonKeyMake, .quickTimeMetadataKeyMake),
            ("model", .commonKeyModel, .quickTimeMetadataKeyModel),
            ("encoder", .commonKeySoftware, .quickTimeMetadataKeySoftware),
            ("copyright", .commonKeyCopyrights, .quickTimeMetadataKeyCopyright),
            ("artist", .commonKeyArtist, .quickTimeMetadataKeyArtist),
            ("author", .commonKeyAuthor, .quickTimeMetadataKeyAuthor),
        ]
        return names.compactMap { name, common, quickTime in
            // FFmpeg's name, or the QuickTime key itself ('mdta' keys, as movie file outputs write make and model).
            guard let value = tags[name] ?? tags[quickTime.rawValue] else { return nil }
            let item = AVMutableMetadataItem()
            item.keySpace = keySpace
            item.key = (keySpace == .common ? common.rawValue : quickTime.rawValue) as NSString
            item.value = value as NSString
            return item
        }
    }
}

/// An asset of a local file.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    private let storedURL: URL
    /// The file's URL.
    open var url: URL { storedURL }

    /// Creates an asset for a file URL; the file is read when a property is first asked for.
    /// Options are accepted and ignored: `AVURLAssetPreferPreciseDurationAndTimingKey`
    /// changes nothing because times are always precise.
    public init(url URL: URL, options: [String: Any]? = nil) {
        self.storedURL = URL
        super.init()
    }

    override var fileURL: URL? { url }

    /// File types the asset reads (those FFmpeg demuxes of AVMediaFormat.h's list).
    open class func audiovisualTypes() -> [AVFileType] { [.mov, .mp4, .m4v, .m4a, .avci, .mobile3GPP, .wav, .aiff, .mp3, .ac3] }
}

/// Asks for precise duration and timing (always given on Linux).
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"
