import CaptureCore
import Foundation
import ImageOps

/// Decoded samples of one output track, segment after segment, timed on the output's clock:
/// the transcoder's source, and the asset reader's for a composition track.
///
/// Not thread-safe: one thread at a time.
package final class MovieSegmentFrames: @unchecked Sendable {
    package struct Pending {
        package var sample: MovieTrackDecoder.Sample
        /// The sample's time on the output (the target timeline).
        package var time: CMTime
    }

    let track: MovieEditTrack
    let pixelFormat: PixelFormat?
    let pcm: MovieTrackDecoder.PCMFormat?
    var scaledSize: (width: Int, height: Int)?
    var pending: Pending?
    private var segmentIndex = 0
    private var decoder: MovieTrackDecoder?
    private var scratch: CVBuffer?

    package init(track: MovieEditTrack, pixelFormat: PixelFormat?, pcm: MovieTrackDecoder.PCMFormat?) {
        self.track = MovieEditTrack(kind: track.kind, segments: track.media)
        self.pixelFormat = pixelFormat
        self.pcm = pcm
    }

    /// The next sample and its output time; nil after the last segment.
    package func next() throws(MovieExportError) -> Pending? {
        try fill()
        defer { pending = nil }
        return pending
    }

    /// Decodes the next sample into `pending` unless one is waiting.
    func fill() throws(MovieExportError) {
        while pending == nil && segmentIndex < track.segments.count {
            let segment = track.segments[segmentIndex]
            guard let url = segment.url, let info = segment.track else {
                segmentIndex += 1
                continue
            }
            let end = segment.source.duration.isNumeric ? segment.source.start + segment.source.duration : nil
            if decoder == nil {
                do {
                    decoder = try MovieTrackDecoder(url: url, track: info, pixelFormat: pixelFormat, pcm: pcm, start: segment.source.start, end: end)
                } catch {
                    throw .reader(error)
                }
            }
            let sample: MovieTrackDecoder.Sample?
            do { sample = try decoder?.next() } catch { throw .reader(error) }
            guard var sample else {
                decoder = nil
                segmentIndex += 1
                continue
            }
            guard sample.time.isNumeric else { continue }
            // The source time's place on the output: a frame shown at the start (decoded
            // from before it) plays from the segment's target start; audio keeps its exact
            // place (the writer cuts samples already written).
            let time = segment.targetTime(track.kind == .video ? CMTimeMaximum(sample.time, segment.source.start) : sample.time)
            if case .audio(let data, let frames, let start) = sample, let end, info.sampleRate > 0 {
                // Audio past the segment's end is cut.
                let room = Int(SaturatingInt64.rounded((end - start).seconds * Double(info.sampleRate)))
                if room <= 0 { continue }
                if room < frames {
                    let bytes = data.count / frames
                    sample = .audio(data.prefix(room * bytes), frames: room, time: start)
                }
            }
            pending = Pending(sample: sample, time: time)
        }
    }

    /// The frame at the output size (scaled into a scratch buffer when it differs).
    func scaled(_ buffer: CVBuffer) -> CVBuffer {
        guard let size = scaledSize, buffer.width != size.width || buffer.height != size.height else { return buffer }
        if scratch == nil || scratch?.format != buffer.format {
            scratch = CVBuffer(format: buffer.format, width: size.width, height: size.height)
        }
        guard let scratch, ImageTransform.scale(buffer, into: scratch) else { return buffer }
        return scratch
    }
}
