import Foundation
import ImageOps
import MediaIO

/// Writes media from `AVAssetWriterInput`s to a new QuickTime, MPEG-4 or M4A file, on the
/// movie output's engine (MediaIO's `MovieWriter`: libx264/libx265 video, FFmpeg's AAC or
/// linear PCM audio, libavformat's mov muxer).
///
/// One serial queue per writer ("OpenCapture.AVAssetWriter") encodes what the inputs
/// queue, in the order appended. A `movieFragmentInterval` makes a fragmented file that
/// plays up to its last fragment after a crash, as the movie output's; without it the
/// file plays only once `finishWriting` completes.
///
/// The status machine (`RecordingCore.Transitions.assetWriter`), the session start, the
/// inputs' back-pressure and the error mapping are the recorder core's (`RecordingCore`);
/// `status` reads its phase, `.writing` while `finishWriting` finishes, as on iOS.
///
/// Threads: `finishWriting(completionHandler:)` calls its handler on the writer's queue;
/// every method may be called from any thread. `status` and `error` are key-value
/// observable (see `AVAssetWriter+KeyValueObserving.swift`): each change is announced on
/// the thread that makes it, with no lock held.
open class AVAssetWriter: NSObject, @unchecked Sendable {
    /// The writer's state, as AVAssetWriter.h numbers it.
    public enum Status: Int, Sendable {
        case unknown = 0
        case writing = 1
        case completed = 2
        case failed = 3
        case cancelled = 4
    }

    private let storedOutputURL: URL
    open var outputURL: URL { storedOutputURL }
    private let storedOutputFileType: AVFileType
    open var outputFileType: AVFileType { storedOutputFileType }
    /// The writer's state (the engine, AVAssetWriter+Engine.swift, shares it).
    let state = Mutex(State())
    /// The writer's serial queue (internal so tests can hold back encoding).
    let queue = DispatchQueue(label: "OpenCapture.AVAssetWriter")
    /// Observers of the writer (see `AVAssetWriter+KeyValueObserving.swift`).
    let writerKeyValueObservers = KeyValueObserverRegistry(label: "assetWriter")

    struct State {
        /// The status machine and the session start.
        var core = RecordingCore(.assetWriter)
        var error: (any Error)?
        var inputs: [AVAssetWriterInput] = []
        var metadata: [AVMetadataItem] = []
        var shouldOptimizeForNetworkUse = false
        var movieFragmentInterval = CMTime.invalid
        var initialMovieFragmentSequenceNumber = 1
        var overallDurationHint = CMTime.invalid
        var movieTimeScale: CMTimeScale = 0
        var directoryForTemporaryFiles: URL?
        var writer: MovieWriter?
        /// Scratch buffers for frames of another size or format than the track's.
        var scaled: [AVAssetWriterInput: CVBuffer] = [:]
        /// Each video input with `AVVideoColorPropertiesKey`'s converter into that colour.
        var colorMatchers: [AVAssetWriterInput: AssetWriterColorMatcher] = [:]

        var status: Status { Status(core.phase) }
    }

    /// File types the writer makes.
    public static let supportedFileTypes: [AVFileType] = [.mov, .mp4, .m4v, .m4a]

    /// Creates a writer for a new file at `outputURL` (a file URL). An existing file makes
    /// `startWriting()` fail with `AVError.fileAlreadyExists`; a file type the writer cannot
    /// make throws `AVError.fileFormatNotRecognized`... as Apple's init throws for it.
    public init(outputURL: URL, fileType outputFileType: AVFileType) throws {
        guard outputURL.isFileURL else {
            throw AVError(.invalidOutputURLPathExtension, "The output URL must be a file URL: \(outputURL)")
        }
        guard Self.supportedFileTypes.contains(outputFileType) else {
            throw AVError(.fileFormatNotRecognized, "AVAssetWriter cannot write files of type \(outputFileType.rawValue)")
        }
        self.storedOutputURL = outputURL
        self.storedOutputFileType = outputFileType
        super.init()
    }

    /// The factory spelling of `init(outputURL:fileType:)` (`+assetWriterWithURL:fileType:error:`),
    /// which iOS code writes as `AVAssetWriter(url:fileType:)`.
    public convenience init(url outputURL: URL, fileType outputFileType: AVFileType) throws {
        try self.init(outputURL: outputURL, fileType: outputFileType)
    }

    open var status: Status { state.withLock { $0.status } }
    open var error: (any Error)? { state.withLock { $0.error } }
    open var inputs: [AVAssetWriterInput] { state.withLock { $0.inputs } }
    /// Media types the file type takes: video and audio, audio only for M4A.
    open var availableMediaTypes: [AVMediaType] { outputFileType == .m4a ? [.audio] : [.video, .audio, .metadata] }

    /// Movie-level metadata; the common keys are written (see `AVMetadataItem`).
    open var metadata: [AVMetadataItem] {
        get { state.withLock { $0.metadata } }
        set {
            enforce { try checkStatus(.unknown, "setMetadata:") }
            state.withLock { $0.metadata = newValue }
        }
    }
    /// Put the 'moov' before the media (unfragmented files), so players can start before
    /// the whole file arrived.
    open var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.shouldOptimizeForNetworkUse } }
        set {
            enforce { try checkStatus(.unknown, "setShouldOptimizeForNetworkUse:") }
            state.withLock { $0.shouldOptimizeForNetworkUse = newValue }
        }
    }
    /// Media per fragment; `.invalid` (the default) writes an unfragmented file.
    open var movieFragmentInterval: CMTime {
        get { state.withLock { $0.movieFragmentInterval } }
        set {
            enforce { try checkStatus(.unknown, "setMovieFragmentInterval:") }
            state.withLock { $0.movieFragmentInterval = newValue }
        }
    }
    /// The sequence number of the first fragment ('mfhd'), default 1.
    open var initialMovieFragmentSequenceNumber: Int {
        get { state.withLock { $0.initialMovieFragmentSequenceNumber } }
        set {
            enforce { try checkStatus(.unknown, "setInitialMovieFragmentSequenceNumber:") }
            state.withLock { $0.initialMovieFragmentSequenceNumber = newValue }
        }
    }
    /// A hint of the final duration. FFmpeg's muxer needs none, so it only is kept.
    open var overallDurationHint: CMTime {
        get { state.withLock { $0.overallDurationHint } }
        set { state.withLock { $0.overallDurationHint = newValue } }
    }
    /// The movie's time scale ('mvhd'); 0 lets the writer choose (1000).
    open var movieTimeScale: CMTimeScale {
        get { state.withLock { $0.movieTimeScale } }
        set {
            enforce { try checkStatus(.unknown, "setMovieTimeScale:") }
            state.withLock { $0.movieTimeScale = newValue }
        }
    }
    /// Where temporary files go; the writer needs none (it writes the file directly).
    open var directoryForTemporaryFiles: URL? {
        get { state.withLock { $0.directoryForTemporaryFiles } }
        set { state.withLock { $0.directoryForTemporaryFiles = newValue } }
    }

    // MARK: Inputs

    /// Whether output settings can be written for the media type into this file type: a
    /// codec the writer has (H.264, HEVC with libx265; AAC, linear PCM in QuickTime only).
    open func canApply(outputSettings: [String: Any]?, forMediaType mediaType: AVMediaType) -> Bool {
        guard availableMediaTypes.contains(mediaType) else { return false }
        guard let outputSettings else { return mediaType == .audio && outputFileType == .mov }
        if mediaType == .video {
            guard let codec = AssetWriterSettings.string(outputSettings[AVVideoCodecKey]) else { return false }
            return AssetWriterSettings.videoCodecs.map(\.rawValue).contains(codec)
        }
        switch AudioFormatID(truncatingIfNeeded: integer(outputSettings[AVFormatIDKey]) ?? 0) {
        case kAudioFormatMPEG4AAC: return true
        // Linear PCM only in QuickTime movies, as on Apple platforms.
        case kAudioFormatLinearPCM: return outputFileType == .mov
        default: return false
        }
    }

    /// Whether `input` can be added: before `startWriting()`, once, of a media type and
    /// settings this file type takes, at most one input per media type (Linux: one video
    /// and one audio track).
    open func canAdd(_ input: AVAssetWriterInput) -> Bool {
        let (status, inputs) = state.withLock { ($0.status, $0.inputs) }
        guard status == .unknown, !inputs.contains(input) else { return false }
        // Timed metadata: boxed, described by the source format hint, one track per input.
        if input.mediaType == .metadata {
            return availableMediaTypes.contains(.metadata) && input.outputSettings == nil && input.sourceFormatHint?.metadataKeys != nil
        }
        guard !inputs.contains(where: { $0.mediaType == input.mediaType }) else { return false }
        // Passthrough: linear PCM described by a source format hint, into a QuickTime movie
        // (there are no compressed buffers to pass through on Linux).
        if input.outputSettings == nil {
            return input.mediaType == .audio && outputFileType == .mov
                && input.sourceFormatHint?.audioStreamBasicDescription?.mFormatID == kAudioFormatLinearPCM
        }
        return canApply(outputSettings: input.outputSettings, forMediaType: input.mediaType)
    }

    /// Adds an input; raises when `canAdd` is false, as on iOS.
    open func add(_ input: AVAssetWriterInput) { enforce { try addChecked(input) } }

    /// The checked form of `add(_:)` (Linux addition).
    public func addChecked(_ input: AVAssetWriterInput) throws(AVCaptureException) {
        try checkStatus(.unknown, "addInput:")
        guard canAdd(input) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVAssetWriter", "addInput:", "Cannot add an input with media type \(input.mediaType.rawValue) and these output settings to a file of type \(outputFileType.rawValue)"))
        }
        state.withLock { $0.inputs.append(input) }
        input.attach(to: self)
    }

    // MARK: Writing

    /// Creates the file and writes its header. False (with `status` `.failed` and `error`
    /// set) when the file exists, its folder cannot be written or the settings cannot be
    /// encoded. Raises unless `status` is `.unknown`.
    @discardableResult
    open func startWriting() -> Bool {
        enforce { try checkStatus(.unknown, "startWriting") }
        let inputs = self.inputs
        let configuration = writerConfiguration(of: inputs)
        // KVO: status (and error), and the inputs' readiness, announced here on the caller's thread.
        let changes = watchStatus()
        let started: Bool
        do {
            let writer = try MovieWriter(url: outputURL, configuration: configuration)
            state.withLock {
                $0.writer = writer
                $0.core.move(to: .writing)
            }
            started = true
        } catch {
            state.withLock {
                $0.core.move(to: .failed)
                $0.error = RecordingCore.avError(error, for: .assetWriter)
            }
            started = false
        }
        for change in changes { change.didChange() }
        guard started else { return false }
        for input in inputs { input.pump() }
        return true
    }

    /// Starts the timeline: media at `startTime` is time 0 of the file. Raises unless
    /// `status` is `.writing`, or when called twice.
    open func startSession(atSourceTime startTime: CMTime) {
        enforce {
            try checkStatus(.writing, "startSessionAtSourceTime:")
            if !state.withLock({ $0.core.startSession(at: startTime) }) {
                throw AVCaptureException(
                    .internalInconsistency, selectorReason("AVAssetWriter", "startSessionAtSourceTime:", "Cannot start a new session while a session is in progress"))
            }
        }
        queue.async { [self] in state.withLock { $0.writer }?.startSession(at: startTime) }
    }

    /// Ends the timeline at `endTime`: the last frame lasts until it and media appended
    /// afterwards past it is left out (media appended before the call stays: Linux writes
    /// no edit list). Raises before the session.
    open func endSession(atSourceTime endTime: CMTime) {
        enforce {
            try checkStatus(.writing, "endSessionAtSourceTime:")
            if !state.withLock({ $0.core.isSessionStarted }) {
                throw AVCaptureException(
                    .internalInconsistency, selectorReason("AVAssetWriter", "endSessionAtSourceTime:", "Cannot call method before startSessionAtSourceTime:"))
            }
        }
        queue.async { [self] in state.withLock { $0.writer }?.endSession(at: endTime) }
    }

    /// Finishes every input, writes what is queued, the last fragment and the index, and
    /// calls `handler` on the writer's queue; `status` is then `.completed` or `.failed`.
    /// Raises unless `status` is `.writing`, and for a second call while the first is still
    /// finishing (`status` still `.writing`), as Apple's runtime does.
    open func finishWriting(completionHandler handler: @escaping @Sendable () -> Void) {
        enforce {
            try checkStatus(.writing, "finishWritingWithCompletionHandler:")
            // Finishing: `status` stays `.writing` until the file is complete. Checked and
            // moved in one step, so of two racing calls exactly one finishes.
            guard state.withLock({ $0.core.move(to: .finishing) }) else {
                throw AVCaptureException(.internalInconsistency, selectorReason(
                    "AVAssetWriter", "finishWritingWithCompletionHandler:", "Cannot call method when status is \(Status.writing.rawValue)"))
            }
        }
        for input in inputs where !input.isFinished { input.markAsFinished() }
        queue.async { [self] in
            let writer = state.withLock { $0.writer }
            do {
                try writer?.finish()
                // KVO: .completed is announced on the writer's queue, before the handler.
                let changes = watchStatus()
                state.withLock { _ = $0.core.move(to: .finished) }
                for change in changes { change.didChange() }
            } catch {
                fail(error)
            }
            handler()
        }
    }

    /// The `async` form of `finishWriting(completionHandler:)`.
    open func finishWriting() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            finishWriting { continuation.resume() }
        }
    }

    /// Deprecated since iOS 6: finishes and waits. False when writing failed.
    @available(iOS, deprecated: 6.0, message: "Use finishWritingWithCompletionHandler: instead")
    open func finishWriting() -> Bool {
        let done = DispatchSemaphore(value: 0)
        finishWriting { done.signal() }
        done.wait()
        return status == .completed
    }

    /// Stops at once: what is queued is dropped and the file deleted. Does nothing once
    /// writing completed, failed or was cancelled.
    open func cancelWriting() {
        // KVO: .cancelled is announced on the caller's thread, before the file is removed.
        let changes = watchStatus()
        let started = state.withLock { s -> Bool in
            let wasWriting = s.core.phase.isOpen
            return s.core.move(to: .cancelled) && wasWriting
        }
        for change in changes { change.didChange() }
        guard started else { return }
        queue.sync { [self] in
            state.withLock { $0.writer }?.cancel()
            try? FileManager.default.removeItem(at: outputURL)
        }
    }

    private func checkStatus(_ expected: Status, _ selector: String) throws(AVCaptureException) {
        let status = self.status
        guard status == expected else {
            throw AVCaptureException(
                .internalInconsistency, selectorReason("AVAssetWriter", selector, "Cannot call method when status is \(status.rawValue)"))
        }
    }
}

extension AVAssetWriter.Status {
    /// Apple's status for a recorder-core phase: `.writing` while finishing too.
    init(_ phase: RecordingCore.Phase) {
        switch phase {
        case .idle: self = .unknown
        case .writing, .finishing: self = .writing
        case .finished: self = .completed
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        }
    }
}
