import Foundation
import MediaIO

/// Reads several audio tracks mixed into one stream of linear PCM: each track decoded,
/// scaled by the `audioMix`'s volume for it (tracks the mix does not name play at volume
/// 1) and summed, timed on the asset's timeline, in buffers of up to 1024 frames.
///
/// `audioSettings` as for a track output (`AVFormatIDKey` `kAudioFormatLinearPCM`, bit
/// depth, float); nil gives 32-bit float, interleaved. Linux limitations: the tracks must
/// share a sample rate and channel count (the output keeps them), else it cannot be added.
///
/// Threads: `copyNextSampleBuffer()` decodes and mixes on the calling thread; callers are
/// served one at a time.
open class AVAssetReaderAudioMixOutput: AVAssetReaderOutput, @unchecked Sendable {
    private let storedTracks: [AVAssetTrack]
    /// The tracks mixed.
    open var audioTracks: [AVAssetTrack] { storedTracks }
    private let storedSettings: [String: Any]?
    /// The format of the mixed PCM; nil for 32-bit float.
    open var audioSettings: [String: Any]? { storedSettings }

    private let configuration = Mutex<(mix: AVAudioMix?, algorithm: AVAudioTimePitchAlgorithm)>((nil, .spectral))
    private let reading = Mutex(Reading())

    private struct Reading {
        var started = false
        var finished = false
        var mixer: AudioMixer?
    }

    /// An output mixing `audioTracks`. Raises NSInvalidArgumentException, as Apple's, for
    /// no tracks, a track that is not audio, or settings that are not linear PCM.
    public init(audioTracks: [AVAssetTrack], audioSettings: [String: Any]?) {
        storedTracks = audioTracks
        storedSettings = audioSettings
        super.init()
        enforce {
            let selector = "initWithAudioTracks:audioSettings:"
            if audioTracks.isEmpty {
                throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReaderAudioMixOutput", selector, "audioTracks must not be empty"))
            }
            if let track = audioTracks.first(where: { $0.mediaType != .audio }) {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVAssetReaderAudioMixOutput", selector, "cannot mix tracks of media type \(track.mediaType.rawValue); all tracks must be audio"))
            }
            if let audioSettings, integer(audioSettings[AVFormatIDKey]).map({ AudioFormatID(truncatingIfNeeded: $0) }) != kAudioFormatLinearPCM {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVAssetReaderAudioMixOutput", selector, "AVAssetReaderAudioMixOutput does not currently support AVFormatIDKey values other than kAudioFormatLinearPCM"))
            }
        }
    }

    open override var mediaType: AVMediaType { .audio }

    /// The volumes applied to the tracks; copied when set. Raises NSInvalidArgumentException
    /// once reading has started.
    open var audioMix: AVAudioMix? {
        get { configuration.withLock { $0.mix } }
        set {
            enforce {
                if reading.withLock({ $0.started }) {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVAssetReaderAudioMixOutput", "setAudioMix:", "cannot be called after reading has started"))
                }
            }
            let mix = UncheckedSendable(newValue?.copy() as? AVAudioMix)
            configuration.withLock { $0.mix = mix.value }
        }
    }

    /// The algorithm for scaled audio; kept only (Linux does not time-stretch).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { configuration.withLock { $0.algorithm } }
        set { configuration.withLock { $0.algorithm = newValue } }
    }

    /// The PCM handed out.
    private var pcm: MovieTrackDecoder.PCMFormat {
        let float = storedSettings == nil ? true : storedSettings?[AVLinearPCMIsFloatKey] as? Bool ?? false
        let bits = storedSettings.flatMap { integer($0[AVLinearPCMBitDepthKey]) } ?? (float ? 32 : 16)
        return MovieTrackDecoder.PCMFormat(float: float, bitsPerChannel: bits)
    }

    /// The format every track has (a composition track's first segment's).
    private func source(_ track: AVAssetTrack) -> MovieTrackInfo { (track as? AVCompositionTrack)?.sourceInfo ?? track.info }

    override var readTracks: [AVAssetTrack] { storedTracks }

    override var isSupported: Bool {
        let infos = storedTracks.map(source)
        guard let first = infos.first, first.sampleRate > 0,
            infos.allSatisfy({ $0.sampleRate == first.sampleRate && $0.channels == first.channels && $0.decodable })
        else { return false }
        guard let settings = storedSettings else { return true }
        let format = pcm
        let bitsOK = format.float ? [32, 64].contains(format.bitsPerChannel) : [8, 16, 24, 32].contains(format.bitsPerChannel)
        let rate = AssetWriterSettings.double(settings[AVSampleRateKey])
        let channels = integer(settings[AVNumberOfChannelsKey])
        return bitsOK && settings[AVLinearPCMIsNonInterleaved] as? Bool != true && settings[AVLinearPCMIsBigEndianKey] as? Bool != true
            && (rate == nil || rate == Double(first.sampleRate)) && (channels == nil || channels == first.channels)
    }

    override var isFinished: Bool { reading.withLock { $0.finished } }

    override func open(_ range: CMTimeRange) throws {
        let mix = audioMix
        let float = MovieTrackDecoder.PCMFormat(float: true, bitsPerChannel: 32)
        var sources: [AudioMixer.Source] = []
        for track in storedTracks {
            let curve = mix?.volumeCurve(forTrackID: track.trackID)
            if let composed = track as? AVCompositionTrack {
                // Composition times come out moved `range.start` earlier; put them back.
                let offset = range.start.isNumeric ? range.start : .zero
                let frames = MovieSegmentFrames(track: composed.edit.cropped(to: range), pixelFormat: nil, pcm: float)
                sources.append(AudioMixer.Source(curve: curve) {
                    guard let next = try frames.next(), case .audio(let data, _, _) = next.sample else { return nil }
                    return (Self.floats(data), next.time + offset)
                })
            } else {
                guard let url = track.asset?.fileURL else { throw AVError(.fileFailedToParse, "The track's asset is gone") }
                let end = range.duration.isNumeric ? range.start + range.duration : nil
                let decoder = try MovieTrackDecoder(url: url, track: track.info, pixelFormat: nil, pcm: float, start: range.start, end: end)
                sources.append(AudioMixer.Source(curve: curve) {
                    guard case .audio(let data, _, let time)? = try decoder.next() else { return nil }
                    return (Self.floats(data), time)
                })
            }
        }
        let format = source(storedTracks[0])
        let mixer = AudioMixer(sources: sources, channels: format.channels, sampleRate: format.sampleRate, range: range)
        reading.withLock {
            $0.started = true
            $0.mixer = mixer
        }
    }

    override func close() {
        reading.withLock {
            $0.started = true
            $0.mixer = nil
        }
    }

    /// The next mixed buffer; nil at the end of the tracks (or time range), after a failure
    /// or cancellation. Raises unless the output was added to a reader that started reading.
    open override func copyNextSampleBuffer() -> CMSampleBuffer? {
        let (started, mixer) = reading.withLock { ($0.started, $0.mixer) }
        guard started, let reader else {
            // NSInternalInconsistencyException, as Apple's runtime raises it (AVAssetReaderOutput.h:
            // "This method throws an exception if this output is not added to an instance of
            // AVAssetReader (using -addOutput:) and -startReading is not called on that asset reader").
            AVCaptureException(
                .internalInconsistency,
                selectorReason(
                    "AVAssetReaderAudioMixOutput", "copyNextSampleBuffer",
                    "cannot copy next sample buffer before adding this output to an instance of AVAssetReader (using -addOutput:) and calling -startReading on that asset reader")
            ).raise()
        }
        guard let mixer, reader.status == .reading else { return nil }
        do {
            // One caller at a time mixes (the lock orders them; no user code runs inside).
            guard let block = try reading.withLock({ _ in try mixer.next() }) else {
                reading.withLock {
                    $0.finished = true
                    $0.mixer = nil
                }
                reader.outputFinished()
                return nil
            }
            let format = source(storedTracks[0])
            return PCMSampleBuffer.make(
                PCMSampleBuffer.encode(block.samples, as: pcm), frames: block.frames, time: block.time, sampleRate: format.sampleRate,
                channels: format.channels, format: pcm)
        } catch {
            reader.fail(error)
            return nil
        }
    }

    /// The float samples of decoded PCM.
    private static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
