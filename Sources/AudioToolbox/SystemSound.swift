import CaptureCore
import Foundation
import MediaIO

/// A sound file decoded for playback: the whole sound as interleaved signed 16-bit PCM at
/// the file's rate and channel count, decoded once when its ID is created.
///
/// Any file FFmpeg demuxes and decodes is read (Apple's takes CAF, AIFF and WAV with linear
/// PCM or IMA4; those are all among them). The first decodable audio track is the sound.
package struct SystemSound: Sendable {
    /// The longest sound System Sound Services plays, in seconds (AudioServices.h).
    package static let maximumDuration = 30

    /// Why a file gives no sound.
    package enum LoadError: Error, Equatable {
        /// Missing, unreadable, not a media file, or without an audio track FFmpeg decodes.
        case unreadable(String)
        /// Longer than `maximumDuration`.
        case tooLong

        /// The status `AudioServicesCreateSystemSoundID` answers.
        package var status: OSStatus {
            switch self {
            case .unreadable: kAudioServicesSystemSoundUnspecifiedError
            case .tooLong: kAudioServicesSystemSoundExceededMaximumDurationError
            }
        }
    }

    /// Interleaved native-endian signed 16-bit samples.
    package let samples: Data
    package let sampleRate: Int
    package let channels: Int

    /// The sound's length in sample frames.
    package var frames: Int { samples.count / (channels * 2) }

    /// Decodes the file.
    package init(contentsOf url: URL) throws(LoadError) {
        let reader: MovieReader
        do { reader = try MovieReader(url: url) } catch { throw .unreadable(error.description) }
        guard let track = reader.tracks.first(where: { $0.kind == .audio && $0.decodable }), track.sampleRate > 0, track.channels > 0
        else { throw .unreadable("\(url.lastPathComponent): no audio track FFmpeg decodes") }
        // The container's word first, so a long file is refused without decoding it (with a
        // second of slack for durations estimated from the bit rate); the samples decide.
        if reader.duration.isNumeric, reader.duration.seconds > Double(Self.maximumDuration + 1) { throw .tooLong }
        let limit = Self.maximumDuration * track.sampleRate * track.channels * 2
        var samples = Data()
        var tooLong = false
        do {
            let decoder = try MovieTrackDecoder(
                url: url, track: track, pixelFormat: nil, pcm: MovieTrackDecoder.PCMFormat(float: false, bitsPerChannel: 16))
            while let sample = try decoder.next() {
                guard case .audio(let data, _, _) = sample else { continue }
                samples.append(data)
                if samples.count > limit {
                    tooLong = true
                    break
                }
            }
        } catch {
            throw .unreadable("\(url.lastPathComponent): \(error.description)")
        }
        if tooLong { throw .tooLong }
        self.samples = samples
        sampleRate = track.sampleRate
        channels = track.channels
    }
}
