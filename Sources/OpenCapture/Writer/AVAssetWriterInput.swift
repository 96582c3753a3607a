import Foundation
import MediaIO

/// One track of an `AVAssetWriter`'s file: video encoded to H.264 or HEVC, or audio to AAC
/// or linear PCM, from appended `CMSampleBuffer`s.
///
/// `append(_:)` only queues the buffer: the writer's serial queue encodes it. At most
/// `queueLimit` buffers wait per input (video: 4 with `expectsMediaDataInRealTime`, else 2;
/// audio four times as many, see `queueLimit`); `isReadyForMoreMediaData` is false while
/// that many wait, which is the back-pressure
/// `requestMediaDataWhenReady(on:using:)` follows. The buffers' pixels are read on the
/// writer's queue, so a caller must not change a buffer after appending it.
///
/// Threads: the request block runs on the queue given to `requestMediaDataWhenReady`,
/// never with a lock of OpenCapture's held. `isReadyForMoreMediaData`
/// ("readyForMoreMediaData") is key-value observable: every change is announced on the
/// thread that makes it, with no lock held (see `AVAssetWriter+KeyValueObserving.swift`).
open class AVAssetWriterInput: NSObject, @unchecked Sendable {
    private let storedMediaType: AVMediaType
    open var mediaType: AVMediaType { storedMediaType }
    private let storedOutputSettings: [String: Any]?
    open var outputSettings: [String: Any]? { storedOutputSettings }
    private let storedSourceFormatHint: CMFormatDescription?
    open var sourceFormatHint: CMFormatDescription? { storedSourceFormatHint }
    let state = Mutex(State())
    /// Observers of the input (see `AVAssetWriter+KeyValueObserving.swift`).
    let inputKeyValueObservers = KeyValueObserverRegistry(label: "assetWriterInput")

    struct State {
        var writer: AVAssetWriter?
        var expectsMediaDataInRealTime = false
        var transform = CGAffineTransform.identity
        var mediaTimeScale: CMTimeScale = 0
        var metadata: [AVMetadataItem] = []
        var naturalSize = CGSize.zero
        var languageCode: String?
        var extendedLanguageTag: String?
        var marksOutputTrackAsEnabled = true
        var preferredVolume: Float = 1
        var finished = false
        /// Buffers queued on the writer and not yet encoded (the recorder core's back-pressure).
        var pending = RecordingCore.BackPressure()
        var request: (queue: DispatchQueue, block: @Sendable () -> Void)?
        /// `requestMediaDataWhenReady` was called (a second call raises, as on iOS).
        var hasRequested = false
        var requestRunning = false
        var adaptor = false
        /// Track associations to other inputs' tracks: (the other input, the type).
        var associations: [(input: AVAssetWriterInput, type: String)] = []
    }

    /// Creates an input; settings that do not match the media type or lack a required key
    /// raise NSInvalidArgumentException, as on iOS.
    public convenience init(mediaType: AVMediaType, outputSettings: [String: Any]?) {
        self.init(mediaType: mediaType, outputSettings: outputSettings, sourceFormatHint: nil)
    }

    /// Creates an input with a hint about the appended buffers' format, which stands in for
    /// the settings' size (video) or rate and channel count (audio).
    public init(mediaType: AVMediaType, outputSettings: [String: Any]?, sourceFormatHint: CMFormatDescription?) {
        self.storedMediaType = mediaType
        self.storedOutputSettings = outputSettings
        self.storedSourceFormatHint = sourceFormatHint
        super.init()
        enforce { try Self.validate(mediaType, outputSettings, sourceFormatHint) }
    }

    /// The checks of the initialiser.
    static func validate(_ mediaType: AVMediaType, _ settings: [String: Any]?, _ hint: CMFormatDescription?) throws(AVCaptureException) {
        if let hint, hint.mediaType != CMFormatDescription.MediaType(rawValue: mediaType.fourCharCode) {
            throw AssetWriterSettings.invalid("The media type of the source format hint does not match the media type")
        }
        if let hint, mediaType == .video, hint.dimensions.width <= 0 || hint.dimensions.height <= 0 {
            throw AssetWriterSettings.invalid("The source format hint's width and height must be positive")
        }
        guard let settings else { return }
        switch mediaType {
        case .video: try AssetWriterSettings.checkVideo(settings, hint: hint)
        case .audio: try AssetWriterSettings.checkAudio(settings, hint: hint)
        default: throw AssetWriterSettings.invalid("Output settings are not supported for media type \(mediaType.rawValue)")
        }
    }

    /// Whether the input takes another buffer now: the writer is writing, the input is not
    /// finished and fewer than `queueLimit` buffers wait to be encoded.
    open var isReadyForMoreMediaData: Bool {
        let (writer, finished, pending, realTime) = state.withLock { ($0.writer, $0.finished, $0.pending, $0.expectsMediaDataInRealTime) }
        guard let writer, !finished, writer.status == .writing else { return false }
        return pending.hasRoom(below: Self.queueLimit(for: mediaType, realTime: realTime))
    }

    /// How many appended buffers may wait to be encoded. Audio and video share the writer's
    /// one queue, and an audio buffer (about 21 ms of sound) arrives more often than a video
    /// frame; while a 1080p frame encodes (30-60 ms here) two or three of them arrive, so
    /// audio gets four times the depth: at 48 kHz, 16 buffers are about 0.34 s of sound and
    /// a few kilobytes.
    static func queueLimit(for mediaType: AVMediaType, realTime: Bool) -> Int {
        // Video stays at 4: the buffers come from the capture pools (6 buffers), and a deeper
        // queue would starve them and make the camera drop frames instead.
        let frames = realTime ? 4 : 2
        return mediaType == .audio ? frames * 4 : frames
    }

    /// Tells the input to favour timely processing over waiting (deeper queue). Set before
    /// `startWriting()`.
    open var expectsMediaDataInRealTime: Bool {
        get { state.withLock { $0.expectsMediaDataInRealTime } }
        set { announcingReadiness { state.withLock { $0.expectsMediaDataInRealTime = newValue } } }
    }

    /// The track matrix players apply on display, written to the 'tkhd'. Set before
    /// `startWriting()` (raises after).
    open var transform: CGAffineTransform {
        get { state.withLock { $0.transform } }
        set {
            enforce { try checkNotStarted("setTransform:") }
            state.withLock { $0.transform = newValue }
        }
    }

    /// The video track's time scale; 0 (the default) lets the writer choose (90000).
    /// Raises after `startWriting()`, and for a value other than 0 on an audio input (whose
    /// time scale is the sample rate): AVAssetWriterInput.h, "It is an error to set a value
    /// other than 0 if the receiver has media type AVMediaTypeAudio", so 0 is accepted.
    open var mediaTimeScale: CMTimeScale {
        get { state.withLock { $0.mediaTimeScale } }
        set {
            enforce {
                try checkNotStarted("setMediaTimeScale:")
                if mediaType == .audio, newValue != 0 {
                    throw AVCaptureException(
                        .invalidArgument,
                        selectorReason("AVAssetWriterInput", "setMediaTimeScale:", "Cannot set a media time scale other than 0 for an audio input"))
                }
            }
            state.withLock { $0.mediaTimeScale = newValue }
        }
    }

    /// Track metadata. Not written on Linux: the movie's `AVAssetWriter.metadata` is.
    open var metadata: [AVMetadataItem] {
        get { state.withLock { $0.metadata } }
        set {
            enforce { try checkNotStarted("setMetadata:") }
            state.withLock { $0.metadata = newValue }
        }
    }

    /// Calls `block` on `queue` whenever the input is ready for more data, until
    /// `markAsFinished()` or the writer stops. The block should append while
    /// `isReadyForMoreMediaData` is true, then return. Raises before the input is in a writer
    /// that started writing, and when called a second time (AVAssetWriterInput.h: "you must
    /// ensure that the receiver is attached to an AVAssetWriter via a prior call to -addInput:
    /// and that -startWriting has been called"; "This method throws an exception if this
    /// method is called more than once").
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        enforce { try requestMediaDataWhenReadyChecked(on: queue, using: block) }
    }

    /// The checked form of `requestMediaDataWhenReady(on:using:)` (Linux addition).
    public func requestMediaDataWhenReadyChecked(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) throws(AVCaptureException) {
        let selector = "requestMediaDataWhenReadyOnQueue:usingBlock:"
        try requireStartedWriter(selector)
        let first = state.withLock { s -> Bool in
            guard !s.hasRequested else { return false }
            s.hasRequested = true
            s.request = (queue, block)
            return true
        }
        guard first else {
            throw AVCaptureException(.internalInconsistency, selectorReason(
                "AVAssetWriterInput", selector, "This method may not be called more than once"))
        }
        pump()
    }

    /// The header's precondition of `requestMediaDataWhenReady` and `markAsFinished`: in a
    /// writer whose `startWriting()` was called. Apple's runtime reason for a writer that has
    /// not started ([RT], markAsFinished): "Cannot call method when status is 0".
    private func requireStartedWriter(_ selector: String) throws(AVCaptureException) {
        guard let writer = state.withLock({ $0.writer }) else {
            throw AVCaptureException(.internalInconsistency, selectorReason(
                "AVAssetWriterInput", selector, "Cannot call method before the input has been added to an asset writer (using -[AVAssetWriter addInput:])"))
        }
        let status = writer.status
        guard status != .unknown else {
            throw AVCaptureException(.internalInconsistency, selectorReason(
                "AVAssetWriterInput", selector, "Cannot call method when status is \(status.rawValue)"))
        }
    }

    /// Appends a buffer: video (an image buffer) or linear PCM audio. Returns false when the
    /// writer is not writing (then `status` and `error` say why). Raises before the session
    /// started, after `markAsFinished()`, and for a video input of a pixel buffer adaptor.
    @discardableResult
    open func append(_ sampleBuffer: CMSampleBuffer) -> Bool {
        var accepted = false
        enforce { accepted = try appendChecked(sampleBuffer) }
        return accepted
    }

    /// The checked form of `append(_:)` (Linux addition).
    public func appendChecked(_ sampleBuffer: CMSampleBuffer) throws(AVCaptureException) -> Bool {
        let selector = "appendSampleBuffer:"
        if mediaType == .video, sampleBuffer.imageBuffer == nil {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVAssetWriterInput", selector, "Cannot append sample buffer: Input buffer must be in an uncompressed format when outputSettings is not nil"))
        }
        if mediaType == .metadata {
            guard let group = AVTimedMetadataGroup(sampleBuffer: sampleBuffer) else {
                throw AVCaptureException(
                    .invalidArgument, selectorReason("AVAssetWriterInput", selector, "Cannot append sample buffer: Input buffer must be boxed timed metadata"))
            }
            return try submitMetadata(group, selector: selector, what: "sample buffer")
        }
        let item: AssetWriterItem = mediaType == .video
            ? .video(sampleBuffer.imageBuffer!, sampleBuffer.presentationTimeStamp, forceKeyFrame: Self.forcesKeyFrame(sampleBuffer))
            : .audio(sampleBuffer)
        return try submit(item, selector: selector, what: "sample buffer")
    }

    /// Queues a timed-metadata group as a sample of this input's track, by the keys of its
    /// source format hint. A group with items the hint does not describe is refused (false).
    func submitMetadata(_ group: AVTimedMetadataGroup, selector: String, what: String, type: String = "AVAssetWriterInput") throws(AVCaptureException) -> Bool {
        guard case .success(let sample) = TimedMetadataCoding.sample(of: group, keys: sourceFormatHint?.metadataKeys ?? []) else { return false }
        return try submit(.metadata(sample, group.timeRange.start), selector: selector, what: what, type: type)
    }

    /// Whether `input`'s track can be associated with this one's by `trackAssociationType`
    /// (an `AVAssetTrack.AssociationType` raw value): before writing starts, both inputs of
    /// one writer, not the same input, not already associated so; a metadata referent
    /// ('cdsc') goes from a metadata input to another track.
    open func canAddTrackAssociation(withTrackOf input: AVAssetWriterInput, type trackAssociationType: String) -> Bool {
        let (writer, associations) = state.withLock { ($0.writer, $0.associations) }
        guard let writer, input !== self, input.state.withLock({ $0.writer }) === writer, writer.status == .unknown,
            !associations.contains(where: { $0.input === input && $0.type == trackAssociationType })
        else { return false }
        // Only metadata tracks can be written with references here ('tref' 'cdsc').
        return trackAssociationType == AVAssetTrack.AssociationType.metadataReferent.rawValue && mediaType == .metadata
    }

    /// Associates `input`'s track with this one's; raises `NSInvalidArgumentException`
    /// when `canAddTrackAssociation(withTrackOf:type:)` is false.
    open func addTrackAssociation(withTrackOf input: AVAssetWriterInput, type trackAssociationType: String) {
        enforce {
            guard canAddTrackAssociation(withTrackOf: input, type: trackAssociationType) else {
                throw AVCaptureException(.invalidArgument, selectorReason(
                    "AVAssetWriterInput", "addTrackAssociationWithTrackOfInput:type:",
                    "Cannot add a track association of type \(trackAssociationType) to this input"))
            }
        }
        state.withLock { $0.associations.append((input, trackAssociationType)) }
    }

    /// The inputs whose tracks this one's refers to as a metadata referent.
    var metadataReferents: [AVAssetWriterInput] {
        state.withLock { $0.associations.filter { $0.type == AVAssetTrack.AssociationType.metadataReferent.rawValue }.map(\.input) }
    }

    /// Queues an item on the writer after Apple's state checks.
    func submit(_ item: AssetWriterItem, selector: String, what: String, type: String = "AVAssetWriterInput") throws(AVCaptureException) -> Bool {
        let (writer, finished) = state.withLock { ($0.writer, $0.finished) }
        guard let writer else {
            throw AVCaptureException(
                .internalInconsistency, selectorReason(type, selector, "Cannot append \(what): the input has not been added to an asset writer"))
        }
        if finished {
            throw AVCaptureException(
                .internalInconsistency,
                selectorReason(type, selector, "Cannot append \(what): A sample cannot be appended after markAsFinished has been called"))
        }
        return try writer.enqueue(item, from: self, selector: selector, what: what, type: type)
    }

    /// Says no more buffers will come. The track ends with what was appended. Raises before
    /// the input is in a writer that started writing (AVAssetWriterInput.h: "Before calling
    /// this method, you must ensure that the receiver is attached to an AVAssetWriter via a
    /// prior call to -addInput: and that -startWriting has been called"; Apple's runtime
    /// reason "Cannot call method when status is 0") and once the writer completed ("status
    /// is 2", the same runtime check).
    open func markAsFinished() {
        enforce { try markAsFinishedChecked() }
    }

    /// The checked form of `markAsFinished()` (Linux addition).
    public func markAsFinishedChecked() throws(AVCaptureException) {
        let selector = "markAsFinished"
        try requireStartedWriter(selector)
        if let status = state.withLock({ $0.writer })?.status, status == .completed {
            throw AVCaptureException(.internalInconsistency, selectorReason(
                "AVAssetWriterInput", selector, "Cannot call method when status is \(status.rawValue)"))
        }
        let writer = announcingReadiness {
            state.withLock { s -> AVAssetWriter? in
                s.finished = true
                s.request = nil
                return s.writer
            }
        }
        writer?.inputDidFinish(self)
    }

    open var naturalSize: CGSize {
        get { state.withLock { $0.naturalSize } }
        set { state.withLock { $0.naturalSize = newValue } }
    }
    /// The track's language (ISO 639-2/T). Stored only: FFmpeg's muxer is not told (Linux).
    open var languageCode: String? {
        get { state.withLock { $0.languageCode } }
        set { state.withLock { $0.languageCode = newValue } }
    }
    open var extendedLanguageTag: String? {
        get { state.withLock { $0.extendedLanguageTag } }
        set { state.withLock { $0.extendedLanguageTag = newValue } }
    }
    open var marksOutputTrackAsEnabled: Bool {
        get { state.withLock { $0.marksOutputTrackAsEnabled } }
        set { state.withLock { $0.marksOutputTrackAsEnabled = newValue } }
    }
    open var preferredVolume: Float {
        get { state.withLock { $0.preferredVolume } }
        set { state.withLock { $0.preferredVolume = newValue } }
    }
    /// Multi-pass encoding: not available on Linux, so never performed.
    open var performsMultiPassEncodingIfSupported: Bool { get { false } set {} }
    /// False: no encoder here does multiple passes.
    open var canPerformMultiplePasses: Bool { false }

    // MARK: Writer side

    private func checkNotStarted(_ selector: String) throws(AVCaptureException) {
        let writer = state.withLock { $0.writer }
        if let writer, writer.status != .unknown {
            throw AVCaptureException(
                .internalInconsistency, selectorReason("AVAssetWriterInput", selector, "Cannot call method after writing has started"))
        }
    }

    func attach(to writer: AVAssetWriter) { state.withLock { $0.writer = writer } }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Counts a buffer queued on the writer (on the appending thread).
    func didQueue() { announcingReadiness { state.withLock { $0.pending.enqueue() } } }

    /// Counts a buffer encoded (or dropped) and offers the requester more (on the writer's queue).
    func didEncode() {
        announcingReadiness { state.withLock { $0.pending.dequeue() } }
        pump()
    }

    /// Runs `body`, which may change `isReadyForMoreMediaData`, and announces the change
    /// on this thread when the value differs. Call with no lock held. With nobody
    /// observing the input this costs one atomic load (the per-buffer price).
    private func announcingReadiness<R>(_ body: () -> R) -> R { watchingValues("readyForMoreMediaData", body: body) }

    /// Runs the request block on its queue if the input is ready and it is not running.
    func pump() {
        guard isReadyForMoreMediaData else {
            // A finished or stopped input never calls the block again.
            if isFinished || (state.withLock { $0.writer }?.status.rawValue ?? 0) > AVAssetWriter.Status.writing.rawValue {
                state.withLock { $0.request = nil }
            }
            return
        }
        let request = state.withLock { s -> (queue: DispatchQueue, block: @Sendable () -> Void)? in
            guard let request = s.request, !s.requestRunning else { return nil }
            s.requestRunning = true
            return request
        }
        guard let request else { return }
        request.queue.async { [self] in
            request.block()
            state.withLock { $0.requestRunning = false }
            pump()
        }
    }
}

/// A buffer waiting on the writer's queue.
enum AssetWriterItem: @unchecked Sendable {
    /// A frame, its time, and whether the app asked for a keyframe.
    case video(CVPixelBuffer, CMTime, forceKeyFrame: Bool = false)
    case audio(CMSampleBuffer)
    /// A boxed-metadata sample and its start.
    case metadata(Data, CMTime)
}

extension AVAssetWriterInput {
    /// Whether the buffer carries `kCMSampleBufferAttachmentKey_ForceKeyFrame` set true.
    static func forcesKeyFrame(_ sampleBuffer: CMSampleBuffer) -> Bool {
        guard let value = sampleBuffer.attachments[.forceKeyFrame]?.value else { return false }
        return (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }
}

extension AVMediaType {
    /// The four-character code a format description's media type uses.
    var fourCharCode: FourCharCode {
        rawValue.utf8.reduce(0) { $0 << 8 | FourCharCode($1) }
    }
}
