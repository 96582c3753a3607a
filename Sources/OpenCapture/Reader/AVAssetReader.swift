import Foundation
import MediaIO

/// Reads decoded media from an asset's tracks (a file's, or a composition's: each segment's
/// frames in order, on the composition's timeline) through `AVAssetReaderTrackOutput`s, on
/// MediaIO's `MovieTrackDecoder` (libavformat demuxing, libavcodec decoding, libswscale
/// converting).
///
/// A file that cannot be read (not media, truncated before its index, a codec FFmpeg
/// lacks) makes `startReading()` return false with `status` `.failed` and an AVError in
/// `error`; corrupt data found while reading ends reading the same way, and
/// `copyNextSampleBuffer()` returns nil.
///
/// Threads: every method may be called from any thread; each output decodes on the thread
/// that calls its `copyNextSampleBuffer()`.
open class AVAssetReader: NSObject, @unchecked Sendable {
    /// The reader's state, as AVAssetReader.h numbers it.
    public enum Status: Int, Sendable {
        case unknown = 0
        case reading = 1
        case completed = 2
        case failed = 3
        case cancelled = 4
    }

    private let storedAsset: AVAsset
    open var asset: AVAsset { storedAsset }
    private let state = Mutex(State())
    /// Observers of the reader (see `AVAssetReader+KeyValueObserving.swift`).
    let readerKeyValueObservers = KeyValueObserverRegistry(label: "assetReader")

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var outputs: [AVAssetReaderOutput] = []
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
    }

    /// Creates a reader for an asset. Throws `AVError.fileFormatNotRecognized` for an asset
    /// that is not a local file (Linux reads only those).
    public init(asset: AVAsset) throws {
        guard asset.fileURL != nil || asset is AVComposition else {
            throw AVError(.fileFormatNotRecognized, "AVAssetReader reads only assets of local files and compositions")
        }
        self.storedAsset = asset
        super.init()
    }

    open var status: Status { state.withLock { $0.status } }
    open var error: (any Error)? { state.withLock { $0.error } }
    open var outputs: [AVAssetReaderOutput] { state.withLock { $0.outputs } }

    /// The part of the asset read, `.zero` to `.positiveInfinity` (all of it) by default.
    /// Raises once reading has started.
    open var timeRange: CMTimeRange {
        get { state.withLock { $0.timeRange } }
        set {
            enforce {
                if status != .unknown {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReader", "setTimeRange:", "cannot be called after reading has started"))
                }
                guard newValue.start.isNumeric, newValue.start >= .zero, newValue.duration >= .zero || newValue.duration == .positiveInfinity else {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReader", "setTimeRange:", "invalid time range"))
                }
            }
            state.withLock { $0.timeRange = newValue }
        }
    }

    /// Whether `output` can be added: before reading, once, reading a track of this asset,
    /// with output settings Linux decodes to.
    open func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        let (status, outputs) = state.withLock { ($0.status, $0.outputs) }
        guard status == .unknown, !outputs.contains(output), output.reader == nil else { return false }
        let tracks = output.readTracks
        guard !tracks.isEmpty, tracks.allSatisfy({ $0.asset === asset }) else { return false }
        return output.isSupported
    }

    /// Adds an output; raises when `canAdd` is false, as on iOS.
    open func add(_ output: AVAssetReaderOutput) { enforce { try addChecked(output) } }

    /// The checked form of `add(_:)` (Linux addition).
    public func addChecked(_ output: AVAssetReaderOutput) throws(AVCaptureException) {
        if status != .unknown {
            throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReader", "addOutput:", "cannot add a new output after reading has started"))
        }
        if output.readTracks.contains(where: { $0.asset !== asset }) {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVAssetReader", "addOutput:", "cannot add an output that reads from a track of an asset other than the asset with which the receiver was initialized"))
        }
        guard canAdd(output) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReader", "addOutput:", "Cannot add this output to the asset reader"))
        }
        state.withLock { $0.outputs.append(output) }
        output.reader = self
    }

    /// Opens each output's track for decoding. False, with `status` `.failed` and `error`
    /// set, when the file cannot be read; raises when called a second time.
    @discardableResult
    open func startReading() -> Bool {
        enforce {
            if status != .unknown {
                // Apple raises NSInternalInconsistencyException here (its runtime reason; the header says nothing).
                throw AVCaptureException(.internalInconsistency, selectorReason("AVAssetReader", "startReading", "cannot be called again after reading has already started"))
            }
        }
        let (outputs, range) = changingStatus {
            state.withLock { s -> ([AVAssetReaderOutput], CMTimeRange) in
                s.status = .reading
                return (s.outputs, s.timeRange)
            }
        }
        do {
            if !(asset is AVComposition) { _ = try asset.describedFile() }
            for output in outputs { try output.open(range) }
        } catch {
            fail(error)
            return false
        }
        return true
    }

    /// Stops reading: `status` becomes `.cancelled` and outputs return nil.
    open func cancelReading() {
        let outputs = changingStatus {
            state.withLock { s -> [AVAssetReaderOutput] in
                if s.status == .reading || s.status == .unknown { s.status = .cancelled }
                return s.outputs
            }
        }
        for output in outputs { output.close() }
    }

    /// Ends reading with an error.
    func fail(_ error: any Error) {
        let avError = Self.avError(error)
        let outputs = changingStatus {
            state.withLock { s -> [AVAssetReaderOutput] in
                guard s.status == .reading else { return [] }
                s.status = .failed
                s.error = avError
                return s.outputs
            }
        }
        for output in outputs { output.close() }
    }

    /// An output has delivered its last sample: the reader completes when all have.
    func outputFinished() {
        let outputs = outputs
        guard outputs.allSatisfy(\.isFinished) else { return }
        changingStatus { state.withLock { if $0.status == .reading { $0.status = .completed } } }
    }

    /// The AVError for a MediaIO reader error.
    static func avError(_ error: any Error) -> AVError {
        if let error = error as? AVError { return error }
        if let error = error as? MovieExportError {
            if case .reader(let reader) = error { return avError(reader) }
            return AVError(.decodeFailed, error.description)
        }
        guard let error = error as? MovieReaderError else { return AVError(.unknown, "\(error)") }
        switch error {
        case .cannotOpen: return AVError(.fileFailedToParse, error.description)
        case .notRecognized: return AVError(.fileFormatNotRecognized, error.description)
        case .cannotParse: return AVError(.fileFailedToParse, error.description)
        case .noDecoder: return AVError(.decoderNotFound, error.description)
        case .decodeFailed: return AVError(.decodeFailed, error.description)
        case .unsupportedFormat: return AVError(.unsupportedOutputSettings, error.description)
        }
    }
}
