import Foundation
import MediaIO

/// Makes a new file from an asset (a file or a composition) in the form a preset names.
///
/// Passthrough copies every track's packets unchanged (MediaIO's `MovieSegmentCopier`:
/// the reader's demuxer and the writer's muxer), which joins clips of one codec and
/// format without re-encoding. The H.264 and HEVC presets copy too when the source's
/// codecs already are the preset's (H.264 or HEVC video within the preset's size, AAC
/// audio); otherwise they decode, scale and re-encode (`MovieTranscoder`: the asset
/// reader's decoder, the asset writer's encoders). AppleM4A exports the audio as AAC.
///
/// Threads: each session exports on its own serial queue ("OpenCapture.AVAssetExportSession"),
/// where the completion handler is called and the export's `status` changes are announced
/// to key-value observers (see `AVAssetExportSession+KeyValueObserving.swift`); every
/// property may be read from any thread.
open class AVAssetExportSession: NSObject, @unchecked Sendable {
    /// The session's state, as AVAssetExportSession.h numbers it.
    public enum Status: Int, Sendable {
        case unknown = 0
        case waiting = 1
        case exporting = 2
        case completed = 3
        case failed = 4
        case cancelled = 5
    }

    private let storedPresetName: String
    open var presetName: String { storedPresetName }
    private let storedAsset: AVAsset
    open var asset: AVAsset { storedAsset }
    private let preset: ExportPreset
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "OpenCapture.AVAssetExportSession")
    /// Observers of the session (see `AVAssetExportSession+KeyValueObserving.swift`).
    let exportKeyValueObservers = KeyValueObserverRegistry(label: "assetExportSession")

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var progress: Float = 0
        var cancelled = false
        var outputURL: URL?
        var outputFileType: AVFileType?
        var shouldOptimizeForNetworkUse = false
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        var fileLengthLimit: Int64 = 0
        var metadata: [AVMetadataItem]?
        var audioMix: AVAudioMix?
        var audioTimePitchAlgorithm = AVAudioTimePitchAlgorithm.spectral
        var canPerformMultiplePasses = false
        var directoryForTemporaryFiles: URL?
    }

    /// A session for `asset` and a preset; nil for a preset this system does not offer
    /// (ProRes, alpha, MV-HEVC, HEVC without libx265, unknown names).
    public init?(asset: AVAsset, presetName: String) {
        guard presetName == AVAssetExportPresetPassthrough || Self.allExportPresets().contains(presetName), let preset = ExportPreset(presetName) else {
            return nil
        }
        self.storedAsset = asset
        self.storedPresetName = presetName
        self.preset = preset
        super.init()
    }

    // MARK: Presets and file types

    /// The presets this system can export with (Passthrough not included, as on iOS).
    open class func allExportPresets() -> [String] { ExportPreset.available(hevc: MovieWriter.canEncodeHEVC) }

    /// The presets that can export `asset`: the video ones when it has video, AppleM4A
    /// when it has audio.
    @available(iOS, deprecated: 16.0, renamed: "determineCompatibility(ofExportPreset:with:outputFileType:completionHandler:)")
    open class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        allExportPresets().filter { compatible($0, asset) }
    }

    private static func compatible(_ name: String, _ asset: AVAsset) -> Bool {
        guard let preset = ExportPreset(name) else { return false }
        let tracks = asset.tracks.filter { $0.isPlayable }
        switch preset.kind {
        case .passthrough: return !tracks.isEmpty
        case .audioOnly: return tracks.contains { $0.mediaType == .audio }
        case .video: return tracks.contains { $0.mediaType == .video }
        }
    }

    /// Calls `handler` (on a global queue) with whether the preset can export `asset` to
    /// `outputFileType` (nil: to any type).
    open class func determineCompatibility(
        ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?, completionHandler handler: @escaping @Sendable (Bool) -> Void
    ) {
        let result = isCompatible(presetName, asset, outputFileType)
        DispatchQueue.global().async { handler(result) }
    }

    /// The `async` form of `determineCompatibility(ofExportPreset:with:outputFileType:completionHandler:)`.
    open class func compatibility(ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?) async -> Bool {
        isCompatible(presetName, asset, outputFileType)
    }

    private static func isCompatible(_ name: String, _ asset: AVAsset, _ type: AVFileType?) -> Bool {
        guard name == AVAssetExportPresetPassthrough || allExportPresets().contains(name), let preset = ExportPreset(name) else { return false }
        if let type, !preset.fileTypes.contains(type) { return false }
        return compatible(name, asset)
    }

    /// The file types the preset writes (without looking at the asset).
    open var supportedFileTypes: [AVFileType] { preset.fileTypes }

    /// Calls `handler` (on a global queue) with the file types the asset can be exported to.
    open func determineCompatibleFileTypes(completionHandler handler: @escaping @Sendable ([AVFileType]) -> Void) {
        let types = compatibleTypes
        DispatchQueue.global().async { handler(types) }
    }

    /// The `async` form of `determineCompatibleFileTypes(completionHandler:)`.
    open var compatibleFileTypes: [AVFileType] { get async { compatibleTypes } }

    private var compatibleTypes: [AVFileType] {
        guard Self.compatible(presetName, asset) else { return [] }
        let hasVideo = asset.tracks.contains { $0.mediaType == .video }
        return preset.fileTypes.filter { !(hasVideo && $0 == .m4a && !isAudioOnlyPreset) }
    }

    private var isAudioOnlyPreset: Bool {
        if case .audioOnly = preset.kind { return true }
        return false
    }

    // MARK: Configuration

    /// The file to make; it must not exist (else the export fails with
    /// `AVError.fileAlreadyExists`).
    open var outputURL: URL? {
        get { state.withLock { $0.outputURL } }
        set { state.withLock { $0.outputURL = newValue } }
    }

    /// The type of file to make; one of `supportedFileTypes` (another raises
    /// NSInvalidArgumentException).
    open var outputFileType: AVFileType? {
        get { state.withLock { $0.outputFileType } }
        set {
            if let newValue, !supportedFileTypes.contains(newValue) {
                AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVAssetExportSession", "setOutputFileType:", "Invalid output file type '\(newValue.rawValue)' for preset '\(presetName)'")
                ).raise()
            }
            state.withLock { $0.outputFileType = newValue }
        }
    }

    /// Put the 'moov' before the media ("fast start").
    open var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.shouldOptimizeForNetworkUse } }
        set { state.withLock { $0.shouldOptimizeForNetworkUse = newValue } }
    }

    /// The part of the asset exported; `.zero` to `.positiveInfinity` (all) by default.
    open var timeRange: CMTimeRange {
        get { state.withLock { $0.timeRange } }
        set { state.withLock { $0.timeRange = newValue } }
    }

    /// Bytes the file should not exceed (0: no limit); the export stops before the packet
    /// that would cross it.
    open var fileLengthLimit: Int64 {
        get { state.withLock { $0.fileLengthLimit } }
        set { state.withLock { $0.fileLengthLimit = newValue } }
    }

    /// The movie-level metadata written; nil writes the source file's (an `AVURLAsset`'s).
    open var metadata: [AVMetadataItem]? {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// The volume of the audio tracks over time, applied to the exported audio's samples
    /// (the first audio track's, which is the one exported here). Ignored by the
    /// passthrough preset, as Apple's is: it copies the audio unchanged. Copied when set.
    open var audioMix: AVAudioMix? {
        get { state.withLock { $0.audioMix } }
        set {
            let mix = UncheckedSendable(newValue?.copy() as? AVAudioMix)
            state.withLock { $0.audioMix = mix.value }
        }
    }

    /// Kept only: scaled audio is not exported (Linux does not time-stretch).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { state.withLock { $0.audioTimePitchAlgorithm } }
        set { state.withLock { $0.audioTimePitchAlgorithm = newValue } }
    }

    /// Kept only: the encoder makes one pass.
    open var canPerformMultiplePassesOverSourceMediaData: Bool {
        get { state.withLock { $0.canPerformMultiplePasses } }
        set { state.withLock { $0.canPerformMultiplePasses = newValue } }
    }

    /// Kept only: the export writes no temporary files.
    open var directoryForTemporaryFiles: URL? {
        get { state.withLock { $0.directoryForTemporaryFiles } }
        set { state.withLock { $0.directoryForTemporaryFiles = newValue } }
    }

    /// The asset's duration within `timeRange`: nothing limits it but `fileLengthLimit`,
    /// which Linux does not estimate.
    @available(iOS, deprecated: 18.0, message: "Use estimateMaximumDurationWithCompletionHandler: instead")
    open var maxDuration: CMTime {
        let range = timeRange
        let end = range.duration.isNumeric ? CMTimeMinimum(range.end, asset.duration) : asset.duration
        return CMTimeMaximum(end - range.start, .zero)
    }

    // MARK: Exporting

    open var status: Status { state.withLock { $0.status } }
    open var error: (any Error)? { state.withLock { $0.error } }
    /// From 0 to 1: the share of the output's duration written.
    open var progress: Float { state.withLock { $0.progress } }

    /// Starts exporting on the session's queue and returns; `handler` runs there when the
    /// export completed, failed or was cancelled. Raises NSInternalInconsistencyException
    /// without an `outputFileType`, NSInvalidArgumentException without an `outputURL`, and
    /// when called a second time.
    open func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let selector = "exportAsynchronouslyWithCompletionHandler:"
        let (url, type, started) = changingStatus {
            state.withLock { s -> (URL?, AVFileType?, Bool) in
                let started = s.status != .unknown
                if !started && s.outputURL != nil && s.outputFileType != nil { s.status = .waiting }
                return (s.outputURL, s.outputFileType, started)
            }
        }
        enforce {
            if started {
                throw AVCaptureException(.internalInconsistency, selectorReason("AVAssetExportSession", selector, "Cannot call exportAsynchronouslyWithCompletionHandler: more than once"))
            }
            if type == nil {
                throw AVCaptureException(.internalInconsistency, selectorReason("AVAssetExportSession", selector, "Must set output file type"))
            }
            if url == nil {
                throw AVCaptureException(.invalidArgument, selectorReason("AVAssetExportSession", selector, "outputURL must not be nil"))
            }
        }
        guard let url, let type else { return }
        queue.async { [self] in
            run(url: url, type: type)
            handler()
        }
    }

    /// The `async` form of `exportAsynchronously(completionHandler:)` (iOS 16).
    @available(iOS, deprecated: 18.0, renamed: "export(to:as:)")
    open func export() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            exportAsynchronously { continuation.resume() }
        }
    }

    /// Exports to `url` as `fileType` (iOS 18): returns when done, throws the AVError of a
    /// failure, or `CancellationError` when the task or the export is cancelled.
    open func export(to url: URL, as fileType: AVFileType) async throws {
        state.withLock {
            $0.outputURL = url
            $0.outputFileType = fileType
        }
        if !supportedFileTypes.contains(fileType) {
            throw AVError(.invalidOutputURLPathExtension, "The preset \(presetName) cannot write files of type \(fileType.rawValue)")
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                exportAsynchronously { continuation.resume() }
            }
        } onCancel: {
            cancelExport()
        }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed, "The export failed")
        }
    }

    /// Stops the export: `status` becomes `.cancelled`, the partial file is deleted and the
    /// completion handler is called. Does nothing once the export has ended.
    open func cancelExport() {
        changingStatus {
            state.withLock { s in
                s.cancelled = true
                if s.status == .unknown || s.status == .waiting { s.status = .cancelled }
            }
        }
    }

    /// Runs on the session's queue, announcing each status change there: `.exporting` (or
    /// `.cancelled`) as it begins, the outcome when it ends.
    private func run(url: URL, type: AVFileType) {
        let (range, limit, items, optimize, mix, proceed) = changingStatus {
            state.withLock { s -> (CMTimeRange, Int64, [AVMetadataItem]?, Bool, AVAudioMix?, Bool) in
                guard !s.cancelled else {
                    s.status = .cancelled
                    return (s.timeRange, 0, nil, false, nil, false)
                }
                s.status = .exporting
                return (s.timeRange, s.fileLengthLimit, s.metadata, s.shouldOptimizeForNetworkUse, s.audioMix, true)
            }
        }
        guard proceed else { return }
        changingStatus { performExport(url: url, type: type, range: range, limit: limit, items: items, optimize: optimize, mix: mix) }
    }

    /// The export proper (session's queue); ends with `status` `.completed`, `.failed` or `.cancelled`.
    private func performExport(url: URL, type: AVFileType, range: CMTimeRange, limit: Int64, items: [AVMetadataItem]?, optimize: Bool, mix: AVAudioMix?) {
        if asset.fileURL != nil {
            // A file that cannot be read fails as the reader would.
            do {
                _ = try asset.describedFile()
            } catch {
                state.withLock { s in
                    s.status = .failed
                    s.error = AVAssetReader.avError(error)
                }
                return
            }
        }
        let container: MovieContainer = type == .mov ? .quickTime : type == .m4a ? .m4a : .mpeg4
        let identified = Self.edits(of: asset).map { ($0.trackID, $0.edit.cropped(to: range)) }.filter { !$0.1.media.isEmpty }
        let tracks = identified.map(\.1)
        // The audio mix's volume for the exported audio track (the first), on the asset's
        // timeline: the output starts at the time range's start.
        let exportedAudio = identified.first { $0.1.kind == .audio }?.0
        let curve = exportedAudio.flatMap { mix?.volumeCurve(forTrackID: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let gain = curve.map { Self.audioGain($0, offset: range.start.isNumeric ? range.start.seconds : 0, rate: tracks.first { $0.kind == .audio }?.media.first?.track?.sampleRate ?? 0) }
        let tags = items.map { $0.compactMap(\.movieTag) } ?? Self.sourceTags(of: asset)
        let progress: (Double) -> Void = { [state] value in state.withLock { $0.progress = Float(value) } }
        let isCancelled: () -> Bool = { [state] in state.withLock { $0.cancelled } }
        let fileLimit = limit > 0 ? limit : nil
        do throws(MovieExportError) {
            guard !tracks.isEmpty else { throw .incompatible("the asset has no media to export") }
            switch preset.kind {
            case .passthrough:
                try MovieSegmentCopier.copy(
                    tracks, to: url, container: container, fastStart: optimize, metadata: tags, fileLengthLimit: fileLimit, progress: progress,
                    isCancelled: isCancelled)
            case .audioOnly:
                let audio = tracks.filter { $0.kind == .audio }
                guard let first = audio.first else { throw .incompatible("the asset has no audio track for \(presetName)") }
                if gain == nil, (try? MovieSegmentCopier.check([first], container: .m4a)) != nil {
                    try MovieSegmentCopier.copy(
                        [first], to: url, container: .m4a, fastStart: optimize, metadata: tags, fileLengthLimit: fileLimit, progress: progress,
                        isCancelled: isCancelled)
                } else {
                    var output = MovieTranscoder.Output(container: .m4a)
                    output.audioOnly = true
                    output.fastStart = optimize
                    output.metadata = tags
                    output.audioGain = gain
                    try MovieTranscoder.transcode([first], to: url, output: output, fileLengthLimit: fileLimit, progress: progress, isCancelled: isCancelled)
                }
            case .video(let hevc, let maximum, let bitRate):
                let chosen = [tracks.first { $0.kind == .video }, tracks.first { $0.kind == .audio }].compactMap { $0 }
                guard chosen.contains(where: { $0.kind == .video }) else { throw .incompatible("the asset has no video track for \(presetName)") }
                if gain == nil || !chosen.contains(where: { $0.kind == .audio }), bitRate == nil, Self.alreadyEncoded(chosen, hevc: hevc, maximum: maximum),
                    (try? MovieSegmentCopier.check(chosen, container: container)) != nil
                {
                    try MovieSegmentCopier.copy(
                        chosen, to: url, container: container, fastStart: optimize, metadata: tags, fileLengthLimit: fileLimit, progress: progress,
                        isCancelled: isCancelled)
                } else {
                    var output = MovieTranscoder.Output(container: container)
                    output.hevc = hevc
                    output.maximumSize = maximum
                    output.bitRate = bitRate
                    output.fastStart = optimize
                    output.metadata = tags
                    output.audioGain = gain
                    try MovieTranscoder.transcode(chosen, to: url, output: output, fileLengthLimit: fileLimit, progress: progress, isCancelled: isCancelled)
                }
            }
            state.withLock { s in
                s.status = .completed
                s.progress = 1
            }
        } catch .cancelled {
            state.withLock { $0.status = .cancelled }
        } catch {
            state.withLock { s in
                s.status = .failed
                s.error = Self.avError(error)
            }
        }
    }

    /// Whether the preset would encode what the tracks already hold: its video codec
    /// within its size, AAC audio.
    private static func alreadyEncoded(_ tracks: [MovieEditTrack], hevc: Bool, maximum: (width: Int, height: Int)?) -> Bool {
        tracks.allSatisfy { track in
            track.media.allSatisfy { segment in
                guard let info = segment.track else { return true }
                switch track.kind {
                case .video:
                    let fits = maximum.map { info.width <= $0.width && info.height <= $0.height || info.width <= $0.height && info.height <= $0.width } ?? true
                    return info.codecName == (hevc ? "hevc" : "h264") && fits
                case .audio: return info.codecName == "aac"
                case .other: return false
                }
            }
        }
    }

    /// The asset's tracks as MediaIO edits with their track IDs: a composition's enabled
    /// tracks, or each track of a file whole.
    static func edits(of asset: AVAsset) -> [(trackID: CMPersistentTrackID, edit: MovieEditTrack)] {
        if let composition = asset as? AVComposition {
            return composition.compositionTracks.withLock { $0 }.filter(\.isEnabled).map { ($0.trackID, $0.edit) }
        }
        guard let url = asset.fileURL else { return [] }
        return (asset.tracks as [AVAssetTrack]).compactMap { track in
            guard track.mediaType == .video || track.mediaType == .audio else { return nil }
            let range = track.timeRange
            let segment = MovieEditSegment(url: url, track: track.info, source: range, target: range)
            return (track.trackID, MovieEditTrack(kind: track.mediaType == .video ? .video : .audio, segments: [segment]))
        }
    }

    /// The transcoder's audio hook scaling each block by the curve (block times are output
    /// times, `offset` seconds after the asset's).
    private static func audioGain(_ curve: AudioVolumeCurve, offset: Double, rate: Int) -> @Sendable (CMTime, UnsafeMutableBufferPointer<Float>, Int) -> Void {
        { time, samples, channels in
            curve.apply(to: samples, channels: channels, startSeconds: time.seconds + offset, sampleRate: Double(rate))
        }
    }

    /// A file's own movie tags, carried over when `metadata` is nil.
    private static func sourceTags(of asset: AVAsset) -> [(String, String)] {
        guard asset.fileURL != nil, let tags = try? asset.describedFile().metadata else { return [] }
        let kept = ["title", "description", "creation_time", "location", "make", "model", "copyright", "artist", "author"]
        return kept.compactMap { key in tags[key].map { (key, $0) } }
    }

    static func avError(_ error: MovieExportError) -> AVError {
        switch error {
        case .reader(let reader): return AVAssetReader.avError(reader)
        case .writer(.fileExists): return AVError(.fileAlreadyExists, "Cannot create file: a file already exists at the output URL.")
        case .writer(.diskFull): return AVError(.diskFull, "The disk is full.")
        case .writer(let writer): return AVError(.exportFailed, "Operation Stopped: \(writer.description)")
        case .incompatible(let reason): return AVError(.operationNotSupportedForAsset, "Operation Stopped: \(reason)")
        case .cancelled: return AVError(.operationCancelled, "The export was cancelled")
        }
    }
}
