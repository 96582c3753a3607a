import Foundation
import MediaIO

/// The movie output's audio connection: its output settings and the track they make.
extension AVCaptureMovieFileOutput {
    /// The keys `setOutputSettings(_:for:)` takes for an audio connection.
    static let audioOutputSettingsKeys = [AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVEncoderBitRateKey]

    /// The microphone's format on the connection: rate and channel count of the track.
    private func microphoneFormat(of connection: AVCaptureConnection) -> AudioStreamBasicDescription? {
        connection.inputPorts.first { $0.mediaType == .audio }?.formatDescription?.audioStreamBasicDescription
    }

    /// AAC at the microphone's rate and channel count, 64 kbit/s per channel unless set.
    func audioOutputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        guard let asbd = microphoneFormat(of: connection) else { return [:] }
        let channels = Int(asbd.mChannelsPerFrame)
        let bitRate = recorder.settings.withLock { $0.audioBitRate } ?? 64_000 * channels
        return [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: asbd.mSampleRate, AVNumberOfChannelsKey: channels,
            AVEncoderBitRateKey: bitRate,
        ]
    }

    /// The audio track a recording from `connection` gets, nil without a microphone format.
    func movieAudioSettings(for connection: AVCaptureConnection) -> MovieAudioSettings? {
        guard let asbd = microphoneFormat(of: connection), asbd.mSampleRate > 0, asbd.mChannelsPerFrame > 0 else { return nil }
        let channels = Int(asbd.mChannelsPerFrame)
        let bitRate = recorder.settings.withLock { $0.audioBitRate } ?? 64_000 * channels
        return MovieAudioSettings(codec: .aac(bitRate: bitRate), sampleRate: Int(asbd.mSampleRate.rounded()), channels: channels)
    }

    /// Checks and keeps an audio connection's settings: AAC only, at the microphone's own
    /// rate and channel count (nothing resamples or remixes), a bit rate of 8 to 320 kbit/s
    /// per channel. Anything else raises `NSInvalidArgumentException`, as iOS does for keys
    /// and values it cannot record.
    func setAudioOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) throws(AVCaptureException) {
        func invalid(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureMovieFileOutput", "setOutputSettings:forConnection:", text))
        }
        let asbd = microphoneFormat(of: connection)
        var bitRate: Int?
        for (key, value) in outputSettings ?? [:] {
            switch key {
            case AVFormatIDKey:
                guard integer(value) == Int(kAudioFormatMPEG4AAC) else {
                    throw invalid("Unsupported audio format \(value) - AVCaptureMovieFileOutput records kAudioFormatMPEG4AAC")
                }
            case AVSampleRateKey:
                let rate = (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? integer(value).map(Double.init)
                guard let rate, let asbd, rate == asbd.mSampleRate else {
                    throw invalid("Unsupported sample rate \(value) - the microphone records at \(asbd?.mSampleRate ?? 0) Hz")
                }
            case AVNumberOfChannelsKey:
                guard let count = integer(value), let asbd, count == Int(asbd.mChannelsPerFrame) else {
                    throw invalid("Unsupported number of channels \(value) - the microphone records \(asbd?.mChannelsPerFrame ?? 0)")
                }
            case AVEncoderBitRateKey:
                let channels = Int(asbd?.mChannelsPerFrame ?? 1)
                guard let rate = integer(value), (8_000 * channels...320_000 * channels).contains(rate) else {
                    throw invalid("Unsupported AVEncoderBitRateKey \(value) for \(channels) channel(s)")
                }
                bitRate = rate
            default:
                throw invalid("Unsupported output settings key \(key) - use supportedOutputSettingsKeysForConnection:")
            }
        }
        recorder.settings.withLock { $0.audioBitRate = bitRate }
    }
}
