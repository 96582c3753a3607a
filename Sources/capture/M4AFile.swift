import Foundation
import MediaIO
import OpenCapture

/// What `capture audio` writes its 16-bit interleaved PCM to: a WAV or an M4A file.
protocol SoundFile: AnyObject {
    /// Appends `frames` frames of 16-bit interleaved samples.
    func append(_ bytes: Data, frames: Int) throws
    /// Completes the file; before this it is not a recording.
    func finish() throws
}

extension WAVFile: SoundFile {
    func append(_ bytes: Data, frames: Int) throws { try append(bytes) }
}

/// AAC-LC (FFmpeg's native encoder, MediaIO's `MovieWriter`, as the movie output's audio
/// track) in an Apple MPEG-4 audio file, 64 kbit/s per channel. Unfragmented: it plays
/// only once `finish()` has written its index.
final class M4AFile: SoundFile {
    private let writer: MovieWriter
    private let layout: PCMLayout
    private var frames: Int64 = 0

    init(path: String, sampleRate: Double, channels: Int) throws {
        var configuration = MovieWriterConfiguration(
            audio: MovieAudioSettings(codec: .aac(bitRate: 64_000 * channels), sampleRate: Int(sampleRate.rounded()), channels: channels))
        configuration.container = .m4a
        do {
            writer = try MovieWriter(url: URL(fileURLWithPath: path), configuration: configuration)
        } catch {
            // The writer's message names the file too: once is enough.
            let reason = ErrorText.line(error).replacingOccurrences(of: "\(path): ", with: "")
            throw CommandFailure(message: "cannot write \(ErrorText.quoted(path)): \(reason)")
        }
        layout = PCMLayout(sample: .int16, channels: channels, sampleRate: sampleRate)
    }

    func append(_ bytes: Data, frames count: Int) throws {
        // Placed by sample count: the file holds exactly the samples kept.
        let time = CMTime(value: frames, timescale: CMTimeScale(layout.sampleRate.rounded()))
        // withUnsafeBytes rethrows untyped errors: carry the typed one out.
        let failure = bytes.withUnsafeBytes { raw -> MovieWriterError? in
            do throws(MovieWriterError) {
                try writer.appendAudio(raw, frames: count, layout: layout, presentationTime: time)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            if case .diskFull = failure { throw CommandFailure(message: "the disk is full") }
            throw CommandFailure(message: "encoding the sound failed: \(failure)")
        }
        frames += Int64(count)
    }

    func finish() throws {
        do {
            try writer.finish()
        } catch {
            throw CommandFailure(message: "finishing the M4A file failed: \(error)")
        }
    }
}
