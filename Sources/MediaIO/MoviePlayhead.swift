import CaptureCore
import Foundation

/// Steps through a video track one frame at a time, forwards or backwards, frame-exactly:
/// the engine of a file deck.
///
/// Forwards it decodes in order. Backwards it decodes the group of pictures before the
/// current frame (seek to the keyframe at or before it, decode forwards up to the current
/// frame) and hands those frames out newest first; at most `reverseBudget` bytes of frames
/// are kept (always one), so a long GOP, or one of big pictures, is decoded again for each
/// window rather than held whole.
///
/// Not thread-safe: one thread at a time (the deck's playback thread).
package final class MoviePlayhead: @unchecked Sendable {
    /// A decoded frame and where it sits in the file.
    package struct Frame: @unchecked Sendable {
        package var buffer: CVBuffer
        /// Presentation time in the file.
        package var time: CMTime
        /// How long the frame is shown (the track's frame interval when the file does not say).
        package var duration: CMTime
    }

    /// Why playback forwards stopped before the track's end, when it did (a read or decode
    /// error, or data missing: a truncated file).
    package enum Damage: Sendable, Equatable {
        case failed(String)
        case endsEarly(at: CMTime)
    }

    package let track: MovieTrackInfo
    /// Bytes of decoded frames held at most when playing backwards (the newest frame is
    /// kept whatever its size).
    package let reverseBudget: Int
    /// The default `reverseBudget`, 150 MB: 48 frames of 1080p 4:2:0, 2 of 8192x4320.
    package static let defaultReverseBudget = 150_000_000
    private let decoder: MovieTrackDecoder
    private let frameInterval: CMTime
    /// The frame shown last; nil before the first.
    package private(set) var current: Frame?
    /// Set when a forward step found the end of the track; the next backward step gives the last frame.
    private var pastEnd = false
    /// The decoder continues forwards from `current` (false after backward steps).
    private var forwardReady = true
    /// Frames before `current` in presentation order, decoded by the last backward fill.
    private var earlier: [Frame] = []
    /// What went wrong at the end of forward play.
    package private(set) var damage: Damage?
    /// Frames forward play passed over because their time was not after the frame before
    /// (a variable-frame-rate file whose container rounded two frames to one time): the
    /// deck reports them as drops.
    package private(set) var skippedFrames = 0
    /// The decoder was just moved back to a keyframe: the frames up to `current` come again
    /// and are no skip.
    private var refilling = false

    package init(
        url: URL, track: MovieTrackInfo, pixelFormat: PixelFormat, threads: Int = 1, reverseBudget: Int = MoviePlayhead.defaultReverseBudget
    ) throws(MovieReaderError) {
        self.track = track
        self.reverseBudget = max(reverseBudget, 0)
        decoder = try MovieTrackDecoder(url: url, track: track, pixelFormat: pixelFormat, pcm: nil, threads: threads)
        let rate = track.frameRate > 0 ? track.frameRate : 30
        frameInterval = CMTime(seconds: 1 / rate, preferredTimescale: 90_000)
    }

    /// How many frames of `format` the backward window holds: at least one.
    package func reverseLimit(for format: PixelFormat) -> Int {
        // A pixel buffer's size: each plane's rows and the plane itself aligned, as CVBuffer lays them out.
        let bytes = format.planeGeometry(width: track.width, height: track.height).reduce(0) {
            CVBuffer.aligned($0 + CVBuffer.aligned($1.width * $1.bytesPerPixel) * $1.height)
        }
        return max(1, reverseBudget / max(bytes, 1))
    }

    /// The pixel format frames are converted to; a change applies from the next frame decoded.
    package var pixelFormat: PixelFormat? {
        get { decoder.pixelFormat }
        set { decoder.pixelFormat = newValue }
    }

    /// Where converted frames go when the format and size match.
    package var pool: CVPixelBufferPool? {
        get { decoder.pool }
        set { decoder.pool = newValue }
    }

    /// The bytes of decoded frames the backward window holds now (at most `reverseBudget`,
    /// or one frame when a frame alone is larger).
    package var heldBytes: Int { earlier.reduce(0) { $0 + CVPixelBufferGetDataSize($1.buffer) } }
    /// The most bytes a backward window has held at once, for tests: `heldBytes` is read
    /// after a frame was handed out, so it never sees a window's full size.
    package private(set) var peakHeldBytes = 0
    /// How many backward windows a stream without times may span: each window decodes it
    /// from its first byte, so the work grows with the square of its length.
    package static let untimedReverseWindows = 16

    /// Moves before the first frame: the next forward step gives it.
    package func rewind() {
        decoder.seek(toKeyframeAtOrBefore: .zero)
        current = nil
        pastEnd = false
        forwardReady = true
        earlier.removeAll()
        damage = nil
    }

    /// Moves past the last frame: the next backward step gives it.
    package func windToEnd() {
        current = nil
        pastEnd = true
        forwardReady = false
        earlier.removeAll()
    }

    /// Whether the head sits before the first frame (nothing shown yet, or rewound).
    package var isBeforeStart: Bool { current == nil && !pastEnd }

    /// The next frame in the direction asked, nil at the end (forwards) or the start
    /// (backwards), where the head stays. Throws when the data cannot be decoded.
    package func step(forward: Bool) throws(MovieReaderError) -> Frame? {
        forward ? try stepForward() : try stepBackward()
    }

    private func stepForward() throws(MovieReaderError) -> Frame? {
        if pastEnd && current == nil { return nil }
        if !forwardReady {
            earlier.removeAll()
            if let current { decoder.seek(toKeyframeAtOrBefore: current.time) } else { decoder.seek(toKeyframeAtOrBefore: .zero) }
            forwardReady = true
            refilling = current != nil
        }
        while true {
            let sample: MovieTrackDecoder.Sample?
            do {
                sample = try decoder.next()
            } catch {
                damage = .failed(error.description)
                throw error
            }
            guard let sample else {
                noteEnd()
                return nil
            }
            guard let frame = frame(sample) else { continue }
            // After a seek the decoder starts at a keyframe at or before the current frame.
            if let current, frame.time <= current.time {
                // Outside a refill, a frame with no time of its own.
                if !refilling { skippedFrames += 1 }
                continue
            }
            refilling = false
            current = frame
            return frame
        }
    }

    /// At the end of forward play: was it the track's end, or did the data stop short?
    private func noteEnd() {
        if let failure = decoder.readFailure {
            damage = .failed(failure)
            return
        }
        guard let current, track.duration > .zero else { return }
        let reached = current.time + current.duration
        let expected = track.start + track.duration
        // More than a frame and a half missing: the file was cut short.
        let slack = CMTime(seconds: 1.5 * current.duration.seconds, preferredTimescale: 90_000)
        if reached + slack < expected { damage = .endsEarly(at: reached) }
    }

    private func stepBackward() throws(MovieReaderError) -> Frame? {
        forwardReady = false
        if earlier.isEmpty {
            let bound = current?.time ?? (pastEnd ? CMTime.positiveInfinity : nil)
            guard let bound else { return nil }
            earlier = try frames(before: bound)
        }
        guard let frame = earlier.popLast() else { return nil }
        current = frame
        pastEnd = false
        return frame
    }

    /// The frames shown before `bound`, in presentation order: the GOP before it (the last
    /// of them that fit `reverseBudget`). Seeks further back while a demuxer lands past the
    /// bound. Memory: `reverseBudget` bytes of frames, or the one frame that exceeds it.
    private func frames(before bound: CMTime) throws(MovieReaderError) -> [Frame] {
        let end = track.start + track.duration
        var target = bound.isNumeric ? bound - CMTime(value: 1, timescale: max(bound.timescale, 1)) : end
        // mov and mp4 seek by decode time, which B-frames put a few frames before the
        // presentation time: step back a few frames first, then ever further.
        var backoff = 4 * frameInterval.seconds
        while true {
            decoder.seek(toKeyframeAtOrBefore: target)
            var collected: [Frame] = []
            var bytes = 0
            var decoded = 0
            while let sample = try decoder.next() {
                guard let frame = frame(sample) else { continue }
                if bound.isNumeric && frame.time >= bound { break }
                collected.append(frame)
                decoded += 1
                bytes += CVPixelBufferGetDataSize(frame.buffer)
                while bytes > reverseBudget && collected.count > 1 {
                    bytes -= CVPixelBufferGetDataSize(collected.removeFirst().buffer)
                }
                peakHeldBytes = max(peakHeldBytes, bytes)
            }
            if decoder.isUntimed && decoded > Self.untimedReverseWindows * max(collected.count, 1) {
                // No times to seek by: every window would decode from the first byte again.
                throw .unsupportedFormat(
                    "backward play of a stream without timestamps (a raw elementary stream) of \(decoded) frames: "
                        + "at most \(Self.untimedReverseWindows * max(collected.count, 1)) here; put it in an MP4 or MKV to play it backwards")
            }
            if !collected.isEmpty || target <= track.start { return collected }
            target = max(target - CMTime(seconds: backoff, preferredTimescale: 90_000), track.start)
            backoff *= 2
        }
    }

    private func frame(_ sample: MovieTrackDecoder.Sample) -> Frame? {
        guard case .video(let buffer, let time, let duration) = sample, time.isNumeric else { return nil }
        return Frame(buffer: buffer, time: time, duration: duration.isNumeric && duration > .zero ? duration : frameInterval)
    }
}
