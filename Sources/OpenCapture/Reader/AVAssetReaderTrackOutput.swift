import Foundation
import MediaIO

/// Reads one track's samples decoded: video as CVPixelBuffers in the pixel format of
/// `kCVPixelBufferPixelFormatTypeKey` (420v, 420f, y420, f420 or BGRA; 420v, or 420f for
/// full-range sources, when absent), audio as interleaved linear PCM (`AVFormatIDKey`
/// `kAudioFormatLinearPCM`, `AVLinearPCMBitDepthKey` 8/16/24/32, `AVLinearPCMIsFloatKey`).
///
/// Linux limitations: `nil` output settings (the stored, compressed samples) are not
/// offered, so such an output cannot be added; audio keeps the track's sample rate and
/// channel count (settings asking for others cannot be added), and is never
/// non-interleaved or big-endian.
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    private let storedTrack: AVAssetTrack
    open var track: AVAssetTrack { storedTrack }
    private let storedOutputSettings: [String: Any]?
    open var outputSettings: [String: Any]? { storedOutputSettings }
    /// The algorithm for scaled audio; kept only (the reader does not scale time).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { pitch.withLock { $0 } }
        set { pitch.withLock { $0 = newValue } }
    }
    private let pitch = Mutex<AVAudioTimePitchAlgorithm?>(nil)

    private let reading = Mutex(Reading())

    private struct Reading {
        var started = false
        var finished = false
        var decoder: MovieTrackDecoder?
        /// A composition track's segments, decoded one after the other.
        var segments: MovieSegmentFrames?
        /// A timed-metadata track's samples, and their format description.
        var metadata: (reader: MovieMetadataTrackReader, format: CMMetadataFormatDescription)?
    }

    /// The format of the media read: the track's, or a composition track's first segment's.
    private var source: MovieTrackInfo { (track as? AVCompositionTrack)?.sourceInfo ?? track.info }

    /// Creates an output for a track. Raises for settings the media type cannot have, as
    /// on iOS: audio settings with a format other than linear PCM, settings for a track
    /// that is neither video nor audio.
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.storedTrack = track
        self.storedOutputSettings = outputSettings
        super.init()
        if let outputSettings {
            enforce {
                let selector = "initWithTrack:outputSettings:"
                switch track.mediaType {
                case .audio:
                    let format = integer(outputSettings[AVFormatIDKey]).map { AudioFormatID(truncatingIfNeeded: $0) }
                    if format != kAudioFormatLinearPCM {
                        throw AVCaptureException(
                            .invalidArgument,
                            selectorReason("AVAssetReaderTrackOutput", selector, "AVAssetReaderTrackOutput does not currently support AVFormatIDKey values other than kAudioFormatLinearPCM"))
                    }
                case .video:
                    if outputSettings[AVVideoCodecKey] != nil {
                        throw AVCaptureException(
                            .invalidArgument,
                            selectorReason("AVAssetReaderTrackOutput", selector, "AVAssetReaderTrackOutput does not currently support compressed output"))
                    }
                default:
                    throw AVCaptureException(
                        .invalidArgument,
                        selectorReason("AVAssetReaderTrackOutput", selector, "outputSettings are not supported for media type \(track.mediaType.rawValue)"))
                }
            }
        }
    }

    open override var mediaType: AVMediaType { track.mediaType }

    /// The pixel format asked for, nil for the default.
    private var pixelFormat: PixelFormat? {
        guard let raw = outputSettings?[kCVPixelBufferPixelFormatTypeKey] else { return nil }
        let code = integer(raw) ?? (raw as? [Any]).flatMap { $0.first.flatMap(integer) }
        return code.flatMap { PixelFormat(rawValue: OSType(truncatingIfNeeded: $0)) }
    }

    private var pcm: MovieTrackDecoder.PCMFormat {
        let float = outputSettings?[AVLinearPCMIsFloatKey] as? Bool ?? false
        let bits = outputSettings.flatMap { integer($0[AVLinearPCMBitDepthKey]) } ?? (float ? 32 : 16)
        return MovieTrackDecoder.PCMFormat(float: float, bitsPerChannel: bits)
    }

    override var isSupported: Bool {
        if track.mediaType == .metadata, outputSettings == nil, !(track is AVCompositionTrack), let url = track.asset?.fileURL {
            // Boxed metadata is read as stored (nil settings), as on iOS.
            return (try? MovieMetadataTrackReader(url: url, track: track.info)) != nil
        }
        guard let settings = outputSettings else { return false }
        switch track.mediaType {
        case .video:
            guard let raw = settings[kCVPixelBufferPixelFormatTypeKey] else { return true }
            guard let format = pixelFormat, integer(raw) != nil || raw is [Any] else { return false }
            return [.yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange, .yuv420PlanarVideoRange, .yuv420PlanarFullRange, .bgra].contains(format)
        case .audio:
            let format = pcm
            let bitsOK = format.float ? [32, 64].contains(format.bitsPerChannel) : [8, 16, 24, 32].contains(format.bitsPerChannel)
            let rate = AssetWriterSettings.double(settings[AVSampleRateKey])
            let channels = integer(settings[AVNumberOfChannelsKey])
            return bitsOK && settings[AVLinearPCMIsNonInterleaved] as? Bool != true && settings[AVLinearPCMIsBigEndianKey] as? Bool != true
                && (rate == nil || rate == Double(source.sampleRate)) && (channels == nil || channels == source.channels)
        default:
            return false
        }
    }

    override var readTracks: [AVAssetTrack] { [track] }

    override var isFinished: Bool { reading.withLock { $0.finished } }

    override func open(_ range: CMTimeRange) throws {
        if let composed = track as? AVCompositionTrack {
            let edit = composed.edit.cropped(to: range)
            let frames = MovieSegmentFrames(
                track: edit, pixelFormat: track.mediaType == .video ? pixelFormat : nil, pcm: track.mediaType == .audio ? pcm : nil)
            reading.withLock {
                $0.started = true
                $0.segments = frames
            }
            return
        }
        guard let url = track.asset?.fileURL else { throw AVError(.fileFailedToParse, "The track's asset is gone") }
        if track.mediaType == .metadata {
            let reader = try MovieMetadataTrackReader(url: url, track: track.info)
            let format = CMFormatDescription(metadataSubType: kCMMetadataFormatType_Boxed, keys: TimedMetadataCoding.entries(of: reader.keys))
            reading.withLock {
                $0.started = true
                $0.metadata = (reader, format)
            }
            return
        }
        let end = range.duration.isNumeric ? range.start + range.duration : nil
        let decoder = try MovieTrackDecoder(
            url: url, track: track.info, pixelFormat: track.mediaType == .video ? pixelFormat : nil, pcm: track.mediaType == .audio ? pcm : nil,
            start: range.start, end: end)
        reading.withLock {
            $0.started = true
            $0.decoder = decoder
        }
    }

    override func close() {
        reading.withLock {
            $0.started = true
            $0.decoder = nil
            $0.segments = nil
            $0.metadata = nil
        }
    }

    /// The next decoded sample buffer with its presentation time; nil at the end of the
    /// track or time range, after a failure or cancellation. Raises unless the output was
    /// added to a reader that started reading.
    open override func copyNextSampleBuffer() -> CMSampleBuffer? {
        let (started, decoder, segments) = reading.withLock { ($0.started, $0.decoder, $0.segments) }
        guard started, let reader else {
            // NSInternalInconsistencyException, as Apple's runtime raises it (AVAssetReaderOutput.h:
            // "This method throws an exception if this output is not added to an instance of
            // AVAssetReader (using -addOutput:) and -startReading is not called on that asset reader").
            AVCaptureException(
                .internalInconsistency,
                selectorReason(
                    "AVAssetReaderTrackOutput", "copyNextSampleBuffer",
                    "cannot copy next sample buffer before adding this output to an instance of AVAssetReader (using -addOutput:) and calling -startReading on that asset reader")
            ).raise()
        }
        if let segments, reader.status == .reading { return nextComposed(segments, reader: reader) }
        if let metadata = reading.withLock({ $0.metadata }), reader.status == .reading { return nextMetadata(metadata, reader: reader) }
        guard let decoder, reader.status == .reading else { return nil }
        do {
            // The decoder is used by one caller at a time: outputs are read from one thread each.
            guard let sample = try reading.withLock({ _ in try decoder.next() }) else {
                reading.withLock {
                    $0.finished = true
                    $0.decoder = nil
                }
                reader.outputFinished()
                return nil
            }
            return sampleBuffer(sample)
        } catch {
            reader.fail(error)
            return nil
        }
    }

    /// A metadata track's next sample: its boxes in a sample buffer of the track's keys.
    private func nextMetadata(_ metadata: (reader: MovieMetadataTrackReader, format: CMMetadataFormatDescription), reader: AVAssetReader) -> CMSampleBuffer? {
        do {
            guard let next = try reading.withLock({ _ in try metadata.reader.next() }) else {
                reading.withLock {
                    $0.finished = true
                    $0.metadata = nil
                }
                reader.outputFinished()
                return nil
            }
            return TimedMetadataCoding.sampleBuffer(next.sample, format: metadata.format, time: next.time, duration: next.duration)
        } catch {
            reader.fail(error)
            return nil
        }
    }

    /// A composition track's next sample, timed on the composition.
    private func nextComposed(_ segments: MovieSegmentFrames, reader: AVAssetReader) -> CMSampleBuffer? {
        do {
            guard let next = try reading.withLock({ _ in try segments.next() }) else {
                reading.withLock {
                    $0.finished = true
                    $0.segments = nil
                }
                reader.outputFinished()
                return nil
            }
            switch next.sample {
            case .video(let buffer, _, let duration): return sampleBuffer(.video(buffer, time: next.time, duration: duration))
            case .audio(let data, let frames, _): return sampleBuffer(.audio(data, frames: frames, time: next.time))
            }
        } catch {
            reader.fail(error)
            return nil
        }
    }

    private func sampleBuffer(_ sample: MovieTrackDecoder.Sample) -> CMSampleBuffer? {
        let info = source
        switch sample {
        case .video(let buffer, let time, let duration):
            var format: CMFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer, formatDescriptionOut: &format)
            let nominal = info.frameRate > 0 ? CMTime(value: 1, timescale: Int32(max(1, info.frameRate.rounded()))) : CMTime.invalid
            var timing = CMSampleTimingInfo(duration: duration.isNumeric ? duration : nominal, presentationTimeStamp: time, decodeTimeStamp: .invalid)
            var made: CMSampleBuffer?
            CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: buffer, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &made)
            return made
        case .audio(let data, let frames, let time):
            return PCMSampleBuffer.make(data, frames: frames, time: time, sampleRate: info.sampleRate, channels: info.channels, format: pcm)
        }
    }
}
